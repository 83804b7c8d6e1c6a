// Institution marks Fincore ships, as data: URIs of small SVGs (the Link page's CSP allows data:
// images and nothing third-party). Only marks we own are here: the simulated sandbox network's.
// Real institutions' logos are their owners' trademarks and are not bundled, so their `logo` is
// null and Link shows a monogram in the institution's primary colour instead.
//
// Each mark is a 40x40 rounded tile in the institution's colour with a white symbol, so it reads
// the same on a light or a dark page.

/** The tile every mark is drawn on; `ink` is the symbol's colour (dark on a light tile). */
function tile(color: string, symbol: string, ink = '#fff'): string {
  const drawn = symbol.replace(/#fff/g, ink);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="10" fill="${color}"/><g fill="none" stroke="${ink}" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round">${drawn}</g></svg>`;
}

/** A classic bank front: pediment, three columns, a base. */
const COLUMNS = '<path d="M9 16.5 20 10l11 6.5z" fill="#fff"/><path d="M13 19.5v8M20 19.5v8M27 19.5v8M9.5 30.5h21"/>';

const MARKS: Readonly<Record<string, string>> = {
  ins_sandbox_first_bank: tile('#1F6FEB', COLUMNS),
  // A river under a bridge arch.
  ins_sandbox_thames_bank: tile('#0B7A75', '<path d="M9 20a11 11 0 0 1 22 0"/><path d="M8 26c2.4-2 4.8-2 7.2 0s4.8 2 7.2 0 4.8-2 7.2 0"/>'),
  // Rising bars with a trend line.
  ins_sandbox_brokerage: tile('#7A3EF0', '<path d="M12 29v-5M18 29v-9M24 29v-7M30 29V14"/><path d="M10 19l8-6 6 4 7-6"/>'),
  // Two joined rings: members together.
  ins_sandbox_credit_union: tile('#2E8540', '<circle cx="16" cy="20" r="6.5"/><circle cx="24" cy="20" r="6.5"/>'),
  // Two arrows trading places.
  ins_sandbox_crypto_exchange: tile('#F2A900', '<path d="M11 15h17l-4-4M29 25H12l4 4"/>', '#2B1D00'),
  // A payment card.
  ins_sandbox_pay: tile('#E0457B', '<rect x="9" y="13" width="22" height="15" rx="3"/><path d="M9 18h22M13 24h5"/>'),
  // A leaf on a stem.
  ins_sandbox_maple_bank: tile('#C8102E', '<path d="M20 31V17"/><path d="M20 9l3.5 6 5-1.5-2 5.5 4 2.5-7 1.5L20 27l-3.5-4-7-1.5 4-2.5-2-5.5 5 1.5z" fill="#fff" stroke-width="1.2"/>'),
  // Three river waves.
  ins_sandbox_rhein_bank: tile('#3D5A80', '<path d="M9 14c2.7-2.2 5.3-2.2 8 0s5.3 2.2 8 0 3.5-1.5 6-.5M9 20.5c2.7-2.2 5.3-2.2 8 0s5.3 2.2 8 0 3.5-1.5 6-.5M9 27c2.7-2.2 5.3-2.2 8 0s5.3 2.2 8 0 3.5-1.5 6-.5"/>'),
  // A briefcase.
  ins_sandbox_business_bank: tile('#334155', '<rect x="9" y="15" width="22" height="14" rx="2.5"/><path d="M16 15v-3h8v3M9 21h22"/>'),
  // A sun: "lumière".
  ins_sandbox_banque_lumiere: tile('#6C5CE7', '<circle cx="20" cy="20" r="5"/><path d="M20 8v3M20 29v3M8 20h3M29 20h3M11.5 11.5l2.1 2.1M26.4 26.4l2.1 2.1M11.5 28.5l2.1-2.1M26.4 13.6l2.1-2.1"/>'),
  // A hexagonal block.
  ins_sandbox_crypto_wallet: tile('#8247E5', '<path d="M20 9l9.5 5.5v11L20 31l-9.5-5.5v-11z"/><path d="M10.5 14.5 20 20l9.5-5.5M20 20v11"/>'),
};

/** The institution's mark as a data: URI, or null when Fincore ships none (show a monogram). */
export function institutionLogo(institutionId: string): string | null {
  const svg = MARKS[institutionId];
  return svg === undefined ? null : `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/** The ids of the institutions with a bundled mark (for tests and docs). */
export function institutionsWithLogo(): string[] {
  return Object.keys(MARKS);
}
