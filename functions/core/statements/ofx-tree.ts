// A tolerant reader for the body of an OFX file, SGML (1.x) and XML (2.x) alike, into a tree of
// elements. Real exports break the grammar in every way SGML allows and some it does not: leaves
// without closing tags (a value ends at the next `<`), closing tags for aggregates that were never
// opened, aggregates that are never closed, a leaf and a closing aggregate on one line, the value on
// the line after its tag, CDATA sections, self-closing tags, a NUL after the root. So the reader
// does not validate against the DTD: it keeps a stack of open elements, closes what a closing tag or
// a repeated record implies, and ignores closing tags with nothing to close.
//
// Hostile input stays bounded: one linear pass (every scan moves forward; no regular expression
// backtracks over unbounded input), a nesting limit, and DOCTYPE internal subsets are skipped whole,
// never expanded: only the five XML entities and numeric character references are decoded.

import { LIMITS } from '../../contracts/limits';
import { StatementError } from './types';

export interface OfxElement {
  name: string;
  /** The decoded, trimmed text of a leaf; null for an aggregate. */
  value: string | null;
  children: OfxElement[];
  /** 1-based line of the opening tag. */
  line: number;
}

/**
 * Aggregates of the OFX specification that appear in statements. Only these may stay open across
 * other tags; any other tag followed by another tag before any text is an empty leaf, so one
 * missing value never swallows its siblings.
 */
export const OFX_AGGREGATES: ReadonlySet<string> = new Set([
  'OFX', 'SIGNONMSGSRSV1', 'SONRS', 'STATUS', 'FI', 'MFACHALLENGERQ', 'SIGNUPMSGSRSV1', 'ACCTINFOTRNRS',
  'ACCTINFORS', 'ACCTINFO', 'BANKACCTINFO', 'CCACCTINFO', 'INVACCTINFO', 'BANKMSGSRSV1', 'CREDITCARDMSGSRSV1',
  'INVSTMTMSGSRSV1', 'SECLISTMSGSRSV1', 'PROFMSGSRSV1', 'EMAILMSGSRSV1', 'BILLPAYMSGSRSV1', 'INTERXFERMSGSRSV1',
  'WIREXFERMSGSRSV1', 'STMTTRNRS', 'CCSTMTTRNRS', 'INVSTMTTRNRS', 'STMTENDTRNRS', 'CCSTMTENDTRNRS', 'STMTRS',
  'CCSTMTRS', 'INVSTMTRS', 'STMTENDRS', 'CCSTMTENDRS', 'CLOSING', 'BANKACCTFROM', 'BANKACCTTO', 'CCACCTFROM',
  'CCACCTTO', 'INVACCTFROM', 'BANKTRANLIST', 'STMTTRN', 'PAYEE', 'LEDGERBAL', 'AVAILBAL', 'BALLIST', 'BAL',
  'CURRENCY', 'ORIGCURRENCY', 'IMAGEDATA', 'INVTRANLIST', 'INVPOSLIST', 'INVBAL', 'INVOOLIST', 'INV401K',
  'INV401KBAL', 'MATCHINFO', 'CONTRIBINFO', 'CONTRIBSECURITY', 'VESTINFO', 'LOANINFO', 'INV401KSUMMARY',
  'CONTRIBUTIONS', 'WITHDRAWALS', 'EARNINGS', 'YEARTODATE', 'INCEPTODATE', 'PERIODTODATE', 'INVTRAN', 'INVBUY',
  'INVSELL', 'SECID', 'INVBANKTRAN', 'BUYDEBT', 'BUYMF', 'BUYOPT', 'BUYOTHER', 'BUYSTOCK', 'CLOSUREOPT', 'INCOME',
  'INVEXPENSE', 'JRNLFUND', 'JRNLSEC', 'MARGININTEREST', 'REINVEST', 'RETOFCAP', 'SELLDEBT', 'SELLMF', 'SELLOPT',
  'SELLOTHER', 'SELLSTOCK', 'SPLIT', 'TRANSFER', 'INVPOS', 'POSDEBT', 'POSMF', 'POSOPT', 'POSOTHER', 'POSSTOCK',
  'SECLIST', 'SECLISTTRNRS', 'SECLISTRS', 'SECINFO', 'DEBTINFO', 'MFINFO', 'OPTINFO', 'OTHERINFO', 'STOCKINFO',
  'MFASSETCLASS', 'PORTION', 'FIMFASSETCLASS', 'FIPORTION', 'OO', 'OOBUYDEBT', 'OOBUYMF', 'OOBUYOPT',
  'OOBUYOTHER', 'OOBUYSTOCK', 'OOSELLDEBT', 'OOSELLMF', 'OOSELLOPT', 'OOSELLOTHER', 'OOSELLSTOCK', 'SWITCHMF',
]);

/** Containers and records: never read as a leaf, whatever stray text follows the tag. */
const STRUCTURAL: ReadonlySet<string> = new Set([
  'OFX', 'SIGNONMSGSRSV1', 'SONRS', 'BANKMSGSRSV1', 'CREDITCARDMSGSRSV1', 'INVSTMTMSGSRSV1', 'SECLISTMSGSRSV1',
  'SIGNUPMSGSRSV1', 'STMTTRNRS', 'CCSTMTTRNRS', 'INVSTMTTRNRS', 'STMTRS', 'CCSTMTRS', 'INVSTMTRS', 'BANKTRANLIST',
  'INVTRANLIST', 'INVPOSLIST', 'SECLIST', 'STMTTRN', 'INVBANKTRAN', 'INVTRAN', 'INVBUY', 'INVSELL', 'INVPOS',
  'BUYDEBT', 'BUYMF', 'BUYOPT', 'BUYOTHER', 'BUYSTOCK', 'CLOSUREOPT', 'INCOME', 'INVEXPENSE', 'JRNLFUND', 'JRNLSEC',
  'MARGININTEREST', 'REINVEST', 'RETOFCAP', 'SELLDEBT', 'SELLMF', 'SELLOPT', 'SELLOTHER', 'SELLSTOCK', 'SPLIT',
  'TRANSFER', 'POSDEBT', 'POSMF', 'POSOPT', 'POSOTHER', 'POSSTOCK',
]);

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * Decodes the XML entities and numeric character references; anything else starting with `&`
 * (a bare `&` in a memo, an entity a DOCTYPE declares) stays as written.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,6});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
      return valid ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

function isNameStart(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isNameChar(code: number): boolean {
  // letters, digits, '.', '_', ':', '-' (proprietary tags are dotted: INTU.BID, ORIGIN.ID)
  return isNameStart(code) || (code >= 48 && code <= 57) || code === 46 || code === 95 || code === 58 || code === 45;
}

const MAX_TAG_NAME = 64;

interface OpenElement extends OfxElement {
  /** Raw text seen since the tag opened, while it has no children (a leaf candidate). */
  pending: string;
}

/** Counts lines as the scan moves forward: LF, CRLF and a lone CR each end one line. */
class LineCounter {
  private position = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  at(offset: number): number {
    const { text } = this;
    for (let i = this.position; i < offset; i += 1) {
      const code = text.charCodeAt(i);
      if (code === 10) this.line += 1;
      else if (code === 13 && text.charCodeAt(i + 1) !== 10) this.line += 1;
    }
    if (offset > this.position) this.position = offset;
    return this.line;
  }
}

export interface OfxTree {
  root: OfxElement;
  /** Whether `</OFX>` closed the root: a file without it was cut short. */
  closed: boolean;
  /** The line the text ends on (for errors about the end of the file). */
  lastLine: number;
}

/**
 * Reads the elements from the `<OFX>` tag at `start` to its `</OFX>` (or the end of the text).
 * Throws StatementError('statement_malformed') when nesting exceeds the limit.
 */
export function readOfxTree(text: string, start: number): OfxTree {
  const lines = new LineCounter(text);
  const length = text.length;
  const maxDepth = LIMITS.statementOfxMaxDepth;
  const root: OpenElement = { name: '#document', value: null, children: [], line: 1, pending: '' };
  const stack: OpenElement[] = [root];
  let closed = false;
  let rootSeen = false;

  const top = (): OpenElement => stack[stack.length - 1];

  /**
   * Whether an element without children is a leaf: any tag but an aggregate, and an aggregate some
   * bank writes as a leaf (`<CURRENCY>USD`), unless it is a record or container we must keep whole.
   */
  const isLeaf = (element: OpenElement): boolean =>
    element.children.length === 0 &&
    (!OFX_AGGREGATES.has(element.name) || (!STRUCTURAL.has(element.name) && element.pending.trim() !== ''));

  /** Closes the top element; a leaf takes its text as its value. */
  const popTop = (): void => {
    const element = stack.pop();
    if (element === undefined || element === root) return;
    if (isLeaf(element)) {
      element.value = element.pending.trim();
      if (element.value.length > LIMITS.statementOfxMaxValueChars) {
        throw new StatementError('statement_malformed', `The value of <${element.name}> is longer than ${LIMITS.statementOfxMaxValueChars} characters`, element.line);
      }
    }
    element.pending = '';
  };

  /** Before a new tag: a leaf candidate (a tag with text, an unknown empty tag) ends here. */
  const settleLeafCandidate = (): void => {
    const current = top();
    if (current !== root && isLeaf(current)) popTop();
  };

  const appendText = (raw: string): void => {
    const current = top();
    if (current === root || current.children.length > 0) return; // whitespace between aggregates
    current.pending += raw;
  };

  const openElement = (name: string, offset: number, selfClosing: boolean): void => {
    settleLeafCandidate();
    if (OFX_AGGREGATES.has(name)) {
      // A record opening while one of the same name is still open is its sibling: the previous one
      // was never closed (OFX never nests an aggregate in itself).
      for (let depth = stack.length - 1; depth > 0; depth -= 1) {
        if (stack[depth].name === name) {
          while (stack.length > depth) popTop();
          break;
        }
      }
    }
    if (stack.length > maxDepth) {
      throw new StatementError(
        'statement_malformed',
        `The OFX elements nest deeper than ${maxDepth} levels`,
        lines.at(offset),
      );
    }
    const element: OpenElement = { name, value: null, children: [], line: lines.at(offset), pending: '' };
    top().children.push(element);
    if (selfClosing) {
      element.value = OFX_AGGREGATES.has(name) ? null : '';
      return;
    }
    stack.push(element);
  };

  const closeElement = (name: string): boolean => {
    const current = top();
    if (current !== root && current.name !== name && current.children.length === 0 && current.pending.trim() !== '') {
      popTop(); // `<INTU.USERID>5555</SONRS>`: the leaf ends where the aggregate closes
    }
    for (let depth = stack.length - 1; depth > 0; depth -= 1) {
      if (stack[depth].name === name) {
        while (stack.length > depth) popTop();
        return name === 'OFX';
      }
    }
    return false; // nothing open of that name: a stray closing tag
  };

  let i = start;
  while (i < length && !closed) {
    const lt = text.indexOf('<', i);
    if (lt < 0) {
      appendText(decodeEntities(text.slice(i)));
      break;
    }
    if (lt > i) appendText(decodeEntities(text.slice(i, lt)));
    if (text.startsWith('<!--', lt)) {
      const end = text.indexOf('-->', lt + 4);
      i = end < 0 ? length : end + 3;
      continue;
    }
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9);
      appendText(text.slice(lt + 9, end < 0 ? length : end));
      i = end < 0 ? length : end + 3;
      continue;
    }
    if (text.startsWith('<!', lt)) {
      i = skipDeclaration(text, lt);
      continue;
    }
    if (text.startsWith('<?', lt)) {
      const end = text.indexOf('?>', lt + 2);
      i = end < 0 ? length : end + 2;
      continue;
    }
    const tag = readTag(text, lt);
    if (tag === null) {
      appendText('<'); // not a tag: a literal '<' in text (or garbage), read on after it
      i = lt + 1;
      continue;
    }
    i = tag.end;
    if (tag.closing) {
      if (closeElement(tag.name) && rootSeen) closed = true;
    } else {
      if (tag.name === 'OFX') rootSeen = true;
      openElement(tag.name, lt, tag.selfClosing);
    }
  }
  while (stack.length > 1) popTop();
  const ofx = root.children.find((child) => child.name === 'OFX') ?? root;
  return { root: ofx, closed, lastLine: lines.at(closed ? i : length) };
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  end: number;
}

/** Reads `<NAME>`, `</NAME>`, `<NAME/>` or `<NAME attr="...">` at `at`; null when it is not a tag. */
function readTag(text: string, at: number): Tag | null {
  let i = at + 1;
  const closing = text.charCodeAt(i) === 47; // '/'
  if (closing) i += 1;
  const nameStart = i;
  if (!isNameStart(text.charCodeAt(i))) return null;
  while (i < text.length && isNameChar(text.charCodeAt(i)) && i - nameStart <= MAX_TAG_NAME) i += 1;
  if (i - nameStart > MAX_TAG_NAME) return null;
  // An XML namespace prefix (`<ofx:STMTTRN>`) names no other element: OFX's own names hold no colon.
  const qualified = text.slice(nameStart, i);
  const name = qualified.slice(qualified.lastIndexOf(':') + 1).toUpperCase();
  if (name === '') return null;
  const next = text.charCodeAt(i);
  if (next === 62) return { name, closing, selfClosing: false, end: i + 1 }; // '>'
  if (next === 47 && text.charCodeAt(i + 1) === 62) return { name, closing, selfClosing: !closing, end: i + 2 };
  if (next === 32 || next === 9 || next === 10 || next === 13) {
    // XML attributes (none matter in OFX): the tag ends at the next '>' unless a '<' comes first.
    const gt = text.indexOf('>', i);
    const lt = text.indexOf('<', i);
    if (gt < 0 || (lt >= 0 && lt < gt)) return null;
    return { name, closing, selfClosing: !closing && text.charCodeAt(gt - 1) === 47, end: gt + 1 };
  }
  return null;
}

/** Skips `<!DOCTYPE ...>` with its internal subset `[...]` (never read, so never expanded), or any `<!...>`. */
function skipDeclaration(text: string, at: number): number {
  const gt = text.indexOf('>', at);
  const bracket = text.indexOf('[', at);
  if (bracket >= 0 && (gt < 0 || bracket < gt)) {
    const close = text.indexOf(']', bracket);
    if (close < 0) return text.length;
    const end = text.indexOf('>', close);
    return end < 0 ? text.length : end + 1;
  }
  return gt < 0 ? text.length : gt + 1;
}

/** The first descendant named `name` (depth first, in document order), not looking inside `fence` elements. */
export function findFirst(element: OfxElement, name: string, fence: ReadonlySet<string> = EMPTY): OfxElement | null {
  for (const child of element.children) {
    if (child.name === name) return child;
    if (fence.has(child.name)) continue;
    const found = findFirst(child, name, fence);
    if (found !== null) return found;
  }
  return null;
}

/** Every descendant whose name is in `names`, outermost only (not looking inside a match). */
export function findAll(element: OfxElement, names: ReadonlySet<string>, out: OfxElement[] = []): OfxElement[] {
  for (const child of element.children) {
    if (names.has(child.name)) out.push(child);
    else findAll(child, names, out);
  }
  return out;
}

/** The value of the first leaf `name` under `element` (outside `fence`); null when absent or empty. */
export function leafValue(element: OfxElement | null, name: string, fence?: ReadonlySet<string>): string | null {
  if (element === null) return null;
  const found = findFirst(element, name, fence);
  if (found === null || found.value === null) return null;
  return found.value === '' ? null : found.value;
}

const EMPTY: ReadonlySet<string> = new Set();
