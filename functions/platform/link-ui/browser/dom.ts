// Small DOM builders for the Link page. Text is only ever set through textContent; the one use of
// innerHTML is the constant icon markup.
import { ICONS, type IconName } from '../icons';

type AttributeValue = string | boolean | null | undefined;

/** `text`, `className` and `onClick` are handled specially; every other key becomes an attribute. */
export interface ElementProps {
  text?: string | null;
  className?: string | null;
  onClick?: (() => void) | null;
  [attribute: string]: AttributeValue | (() => void);
}

export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props?: ElementProps | null, kids?: readonly Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props) {
    for (const key of Object.keys(props)) {
      const value = props[key];
      // Absent and false values leave the attribute out (aria-describedby only when a hint exists).
      if (value === null || value === undefined || value === false) continue;
      if (typeof value === 'function') node.addEventListener(key.slice(2).toLowerCase(), value);
      else if (key === 'text') node.textContent = String(value);
      else if (key === 'className') node.className = String(value);
      else node.setAttribute(key, value === true ? '' : value);
    }
  }
  for (const kid of kids ?? []) {
    if (kid !== null && kid !== undefined && kid !== false) node.append(kid);
  }
  return node;
}

export function icon(kind: IconName): HTMLDivElement {
  const node = el('div', { className: `icon ${kind}`, 'aria-hidden': 'true' });
  node.innerHTML = ICONS[kind];
  return node;
}

export function heading(text: string): HTMLHeadingElement {
  return el('h1', { id: 'fc-heading', tabindex: '-1', text });
}

export function para(text: string, className?: string): HTMLParagraphElement {
  return el('p', { className: className ?? null, text });
}

export function button(text: string, className: string, onClick: (() => void) | null, type: 'button' | 'submit' = 'button'): HTMLButtonElement {
  return el('button', { type, className, text, onClick });
}

export function field(id: string, labelText: string, attrs: Record<string, string>): { wrap: HTMLDivElement; input: HTMLInputElement } {
  const input = el('input', { id, name: id.replace('fc-', ''), ...attrs });
  return { wrap: el('div', { className: 'field' }, [el('label', { for: id, text: labelText }), input]), input };
}

/** A labelled select; options are [value, label] pairs. */
export function selectField(id: string, labelText: string, options: ReadonlyArray<readonly [string, string]>): { wrap: HTMLDivElement; select: HTMLSelectElement } {
  const select = el(
    'select',
    { id, name: id.replace('fc-', '') },
    options.map(([value, label]) => el('option', { value, text: label })),
  );
  return { wrap: el('div', { className: 'field' }, [el('label', { for: id, text: labelText }), select]), select };
}

export function alertBox(id: string): HTMLDivElement {
  return el('div', { id, className: 'alert', role: 'alert' });
}

/** The institution's colour, when the catalogue gives a plain hex colour (nothing else is applied). */
function hexColor(value: string | null | undefined): string | null {
  return typeof value === 'string' && /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(value) ? value : null;
}

/** Whether white text is legible on the colour (WCAG contrast at least 4.5:1); dark text is used otherwise. */
function whiteIsLegibleOn(hex: string): boolean {
  const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
  const channel = (offset: number) => {
    const c = parseInt(full.slice(offset, offset + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05) >= 4.5;
}

/**
 * An institution's mark: its logo when the catalogue ships one (a data: image, or a path on this
 * origin), over a monogram in its primary colour. The monogram is the fallback for institutions
 * without a logo and for a logo that fails to load: the image sits on top of it in the same fixed
 * box and is removed on error, so nothing moves.
 */
export function avatar(inst: { name: string; primary_color?: string | null; logo?: string | null }): HTMLSpanElement {
  const node = el('span', { className: 'avatar', 'aria-hidden': 'true' }, [el('span', { className: 'monogram', text: (inst.name || '?').charAt(0).toUpperCase() })]);
  const color = hexColor(inst.primary_color);
  if (color) {
    node.style.backgroundColor = color;
    if (!whiteIsLegibleOn(color)) node.classList.add('on-light');
  }
  const logo = inst.logo;
  if (typeof logo === 'string' && (/^data:image\/(?:svg\+xml|png|webp)[;,]/.test(logo) || /^\/(?!\/)/.test(logo))) {
    const img = el('img', { className: 'logo-img', src: logo, alt: '', width: '34', height: '34', decoding: 'async' });
    img.addEventListener('error', () => {
      img.remove();
      node.classList.remove('has-logo');
    });
    node.classList.add('has-logo');
    node.append(img);
  }
  return node;
}

/** Intl.ListFormat, which the ES2020 DOM types do not describe yet. */
type ListFormatConstructor = new (locale: string, options: { type: 'conjunction'; style: 'long' }) => { format(list: readonly string[]): string };

/**
 * "a", "a and b", "a, b and c" in the page's language: the browser's Intl.ListFormat when it has one
 * (it knows, say, that Spanish writes "y" as "e" before an i), else `and` between the last two.
 */
export function listText(locale: string, and: string, words: readonly string[]): string {
  const ListFormat = (Intl as unknown as { ListFormat?: ListFormatConstructor }).ListFormat;
  if (ListFormat) {
    try {
      return new ListFormat(locale, { type: 'conjunction', style: 'long' }).format(words);
    } catch {
      // an unknown locale: the fallback below
    }
  }
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}`;
}
