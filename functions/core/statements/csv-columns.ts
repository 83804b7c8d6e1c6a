// Recognises what a CSV column holds from its header name, in the languages banks export in. Names
// are compared after folding case and accents, and also as a "skeleton" in which every non-ASCII
// letter matches any other: a header written in one single-byte code page and read in another
// ('Zaúčtovaná částka' read as Windows-1252 is 'Zaúètovaná èástka') still matches.

export type ColumnRole =
  | 'bookingDate'
  | 'date'
  | 'transactionDate'
  | 'valueDate'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'direction'
  | 'description'
  | 'payee'
  | 'memo'
  | 'balance'
  | 'currency'
  | 'account'
  | 'status'
  | 'type'
  | 'checkNumber'
  | 'ignored'
  | 'symbol'
  | 'quantity'
  | 'fee';

/** Names of columns that describe the OTHER party or another amount: never the own account, amount or currency. */
const IGNORED = [
  'tegenrekening', 'tegen rekening', 'tegenpartij', 'counter', 'counterparty', 'gegenkonto', 'proti', 'partner',
  'beneficiary', 'oorspr', 'original', 'origineel', 'původní', 'fee', 'fees', 'kosten', 'poplatek', 'gebuhr', 'commission',
  'rate', 'koers', 'kurs', 'umrechnungskurs', 'exchange', 'price', 'id', 'bic', 'volgnr', 'reference', 'referentie',
  'referenz', 'buchungsreferenz', 'category', 'kategorie', 'categorie', 'tags', 'mcc', 'foreign', 'payee', 'payer',
  'local currency', 'local amount',
];

/** Per role: names that mean it; a header matches by equality (strongest), word prefix, or containment. */
const ROLE_NAMES: Array<[ColumnRole, string[]]> = [
  ['valueDate', [
    'value date', 'arvopaiva', 'valutadatum', 'valuta datum', 'rentedatum', 'wertstellung', 'valuta', 'date de valeur', 'fecha valor',
    'data valuta', 'erteknap', 'datum verrekening', 'settlement date', 'wertstellungsdatum', 'date valeur', 'valeur',
  ]],
  ['bookingDate', [
    'posting date', 'post date', 'posted date', 'booking date', 'buchungsdatum', 'buchungstag', 'boekdatum', 'completed date',
    'date processed', 'processed date', 'fecha contable', 'date comptable', 'data contabile', 'data ksiegowania',
    'kirjauspaiva', 'bokforingsdag', 'bokforingsdatum', 'bokfort', 'bogfort', 'bogforingsdato', 'bokfort dato',
  ]],
  ['transactionDate', [
    'transactiedatum', 'started date', 'belegdatum', 'trans date', 'transaction date', 'date de l operation',
    'data operazione', 'data operacji', 'datum verrichting',
  ]],
  ['date', ['date', 'datum', 'data', 'fecha', 'fecha operacion', 'tranzakcio datuma', 'datum provedení', 'dato', 'päivä']],
  ['quantity', ['quantity', 'qty', 'shares', 'units', 'anzahl', 'aantal', 'stuck']],
  ['symbol', ['symbol', 'ticker', 'isin', 'cusip', 'wkn']],
  ['debit', [
    'debit', 'debet', 'debits', 'withdrawals', 'withdrawal', 'paid out', 'money out', 'out', 'ausgang', 'soll', 'af',
    'uitgaven', 'cargo', 'cargos', 'debito', 'debit amount', 'lastschrift', 'belastungen', 'retrait', 'retraits',
    'outflow', 'dare', 'addebiti', 'uscite',
  ]],
  ['credit', [
    'credit', 'credits', 'deposits', 'deposit', 'paid in', 'money in', 'in', 'eingang', 'haben', 'bij', 'abono', 'abonos',
    'credito', 'credit amount', 'gutschrift', 'gutschriften', 'versement', 'versements',
    'inflow', 'avere', 'accrediti', 'entrate',
  ]],
  ['direction', [
    'credit debit', 'creditdebet', 'credit debet', 'debit credit', 'debet credit', 'd k', 'k d', 'd c', 'c d', 'cd', 'dc',
    'af bij', 'bij af', 'direction', 'bevetel kiadas', 'soll haben', 's h', 'debit credit indicator', 'cr dr', 'dr cr',
  ]],
  ['amount', [
    'amount', 'betrag', 'bedrag', 'suma', 'montant', 'importe', 'importo', 'kwota', 'částka', 'zaúčtovaná částka', 'osszeg',
    'tranzakcio osszege', 'summe', 'buchungsbetrag', 'umsatz', 'transaction amount', 'belopp', 'belop', 'beloeb', 'summa',
    'valor', 'amount eur', 'amount usd', 'netto', 'net', 'net amount', 'maara', 'beløb', 'beløp',
  ]],
  ['balance', [
    'balance', 'saldo', 'current balance', 'running balance', 'saldo na trn', 'egyenleg', 'solde', 'kontostand', 'likutis',
    'zustatek', 'running bal', 'available balance', 'ledger balance',
  ]],
  ['currency', [
    'currency', 'ccy', 'valutacode', 'munt', 'wahrung', 'waehrung', 'buchungswahrung', 'devise', 'moneda', 'divisa',
    'devizanem', 'tranzakcio devizaneme', 'měna', 'měna účtu', 'waluta', 'valiuta', 'curr', 'currency code', 'valuta', 'valuutta',
  ]],
  ['account', [
    'account', 'account number', 'account no', 'account nr', 'iban', 'iban bban', 'rekening', 'rekeningnummer', 'konto',
    'kontonummer', 'kontonr', 'auftragskonto', 'cuenta', 'compte', 'numero de compte', 'conto', 'szamlaszam',
    'saskaitos nr', 'číslo účtu', 'card number', 'kartennummer', 'kredietkaart', 'creditcard', 'card', 'card no',
    'umsatz getatigt von', 'karte', 'rachunek', 'numer rachunku', 'product', 'own account', 'eigen rekening',
  ]],
  ['status', ['state', 'status', 'estado', 'statut', 'info', 'buchungsstatus']],
  ['checkNumber', ['check number', 'check or slip', 'check', 'cheque', 'cheque number', 'check no', 'checknum', 'num']],
  ['type', [
    'type', 'transaction type', 'details', 'typ transakce', 'betaalwijze', 'code', 'action', 'tranzakcio tipusa',
    'buchungsart', 'umsatzart', 'transaktionstyp', 'mutatiesoort', 'type betaling',
    // German banks' "Buchungstext" names the kind of booking (Lastschrift, Gutschrift), not the payee or purpose.
    'buchungstext',
  ]],
  ['payee', [
    'payee', 'name', 'naam', 'naam tegenpartij', 'tegenrekeninghouder', 'partner neve', 'gavejas', 'beneficiary name',
    'merchant', 'handelaar', 'empfanger', 'auftraggeber', 'zahlungsempfanger', 'beguenstigter', 'název protiúčtu',
    'counterparty name', 'payer', 'beneficiario', 'counter party', 'counterparty', 'maksunsaaja', 'saaja', 'nimi', 'namn',
    'mottagare',
  ]],
  ['description', [
    'description', 'omschrijving', 'omschrijving 1', 'verwendungszweck', 'beschreibung', 'libelle',
    'libelle operation', 'concepto', 'descrizione', 'opis', 'paaiskinimai', 'kozlemeny', 'zpráva', 'transaktionsbeschreibung',
    'narrative', 'particulars', 'transaction description', 'details description', 'descripcion', 'text', 'mededelingen',
    'toelichting', 'reszletek', 'tekst', 'rubrik', 'otsikko', 'viesti', 'meddelande',
  ]],
  ['memo', ['memo', 'notes', 'note', 'comment', 'comments', 'poznámka', 'remarks', 'memodet', 'memoconv', 'zusatz']],
  // A fee charged with the transaction, in a column of its own (Revolut "Fee", Schwab "Fees & Comm",
  // KBC "Kosten op verrichting"). Last, so any other role wins a tie ("Fee currency", "Amount
  // incl. fees" stay what they were); only taken when the name is, starts or ends with one of these
  // (strength 2+): "Gebührenschlüssel" is a fee code, not a fee.
  ['fee', [
    'fee', 'fees', 'total fees', 'fee amount', 'fees comm', 'fees and commissions', 'commission', 'commissions', 'kosten',
    'kosten op verrichting', 'poplatek', 'gebuhr', 'gebuhren', 'entgelt', 'comision', 'comisiones', 'frais', 'commissione',
    'commissioni', 'transaction fee', 'prowizja', 'oplata', 'jutalek', 'dij',
  ]],
];

export function foldName(name: string): string {
  return splitCamelCase(name)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9\u0080-\uffff]+/g, ' ')
    .trim();
}

/** Every non-ASCII letter becomes `*`, so a header read in the wrong single-byte code page still compares equal. */
export function skeletonName(name: string): string {
  return splitCamelCase(name)
    .normalize('NFC')
    .toLowerCase()
    .replace(/[\u0080-\uffff]/g, '*')
    .replace(/[^a-z0-9*]+/g, ' ')
    .trim();
}

/** "accountNumber", "CreditDebet": exporters that glue words together still name the same thing. */
function splitCamelCase(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2');
}

interface PreparedName {
  folded: string;
  skeleton: string;
}

const PREPARED_ROLES: Array<[ColumnRole, PreparedName[]]> = ROLE_NAMES.map(([role, names]) => [
  role,
  names.map((name) => ({ folded: foldName(name), skeleton: skeletonName(name) })),
]);
const PREPARED_IGNORED: PreparedName[] = IGNORED.map((name) => ({ folded: foldName(name), skeleton: skeletonName(name) }));

/** 3: the whole name; 2: the name starts or ends with it as words; 1: contains it as a word. */
function matchStrength(header: PreparedName, name: PreparedName): number {
  let best = 0;
  for (const [text, key] of [
    [header.folded, name.folded],
    [header.skeleton, name.skeleton],
  ] as const) {
    if (!text || !key) continue;
    if (text === key) return 3;
    const words = ` ${text} `;
    if (words.startsWith(` ${key} `) || words.endsWith(` ${key} `)) best = Math.max(best, 2);
    else if (words.includes(` ${key} `)) best = Math.max(best, 1);
    else if (key.length >= 5 && text.replace(/ /g, '').includes(key.replace(/ /g, ''))) best = Math.max(best, 1);
  }
  return best;
}

export interface HeaderMatch {
  role: ColumnRole;
  strength: number;
}

/** The role a header name gives its column, or null when it names nothing we use. */
export function classifyHeader(name: string): HeaderMatch | null {
  const header = { folded: foldName(name), skeleton: skeletonName(name) };
  if (!header.folded) return null;
  let best: HeaderMatch | null = null;
  for (const [role, names] of PREPARED_ROLES) {
    for (const candidate of names) {
      const strength = matchStrength(header, candidate);
      if (role === 'fee' && strength < 2) continue;
      if (strength > 0 && (!best || strength > best.strength)) best = { role, strength };
    }
  }
  // "Tegenrekening IBAN", "Partner számlaszáma", "Oorspr bedrag": about another party or amount.
  const ignored = PREPARED_IGNORED.some((candidate) => matchStrength(header, candidate) >= 1);
  if (ignored && best && best.strength < 3 && ['account', 'amount', 'currency', 'balance', 'debit', 'credit'].includes(best.role)) {
    return { role: 'ignored', strength: 3 };
  }
  if (ignored && !best) return { role: 'ignored', strength: 3 };
  return best;
}

/** Values a debit/credit direction column holds; anything else means the column is not one. */
const CREDIT_MARKERS = new Set(['c', 'cr', 'k', 'kr', 'credit', 'bij', 'inflow', 'in', '+', 'h', 'haben', 'deposit', 'abono', 'kredit', 'bevetel', 'income', 'credito']);
const DEBIT_MARKERS = new Set(['d', 'dr', 'debit', 'debet', 'af', 'outflow', 'out', '-', 's', 'soll', 'withdrawal', 'cargo', 'kiadas', 'debito', 'expense']);

export function directionOf(raw: string): 'credit' | 'debit' | null {
  const folded = foldName(raw) || raw.trim();
  if (CREDIT_MARKERS.has(folded)) return 'credit';
  if (DEBIT_MARKERS.has(folded)) return 'debit';
  return null;
}

const PENDING = /^(pending|pendiente|in behandeling|(umsatz )?vorgemerkt|ausstehend|en attente|en cours|authori[sz]ed|reserved|reserviert|hold|not yet posted|uncleared)$/;

export function isPendingMarker(raw: string): boolean {
  return PENDING.test(foldName(raw));
}

/** Rows that restate balances or totals rather than move money. */
const SUMMARY_CELL =
  /^((opening|closing|starting|ending|beginning|final|initial|previous|new|old) balance|balance (brought|carried) forward|transactions? total|totals?|sub ?total|total (debits?|credits?|amount)|likutis( \w+)?|apyvarta|turnover|anfangssaldo|endsaldo|schlusssaldo|saldo (anterior|inicial|final|actual|alt|neu)|beginsaldo|eindsaldo|(ancien|nouveau) solde|solde (initial|final|au \S+)|summe|gesamt|totaal)$/;

export function isSummaryText(raw: string): boolean {
  return SUMMARY_CELL.test(foldName(raw));
}
