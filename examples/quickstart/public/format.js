// How the page shows an amount. A module of its own so that it can be checked without the page.

/**
 * Formats an amount in its currency. `Intl.NumberFormat` accepts only three-letter ISO 4217 codes and
 * throws on anything else: a four-letter crypto code (USDT) from a live connector, or no code at all.
 * Those show as the number followed by the code as sent, rather than breaking the whole table.
 */
export function formatAmount(amount, currencyCode, locale = undefined) {
  if (typeof currencyCode === 'string' && /^[A-Za-z]{3}$/.test(currencyCode)) {
    try {
      return new Intl.NumberFormat(locale, { style: 'currency', currency: currencyCode }).format(amount);
    } catch {
      // A code Intl still refuses: shown below as number and code.
    }
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 8 }).format(amount);
  return typeof currencyCode === 'string' && currencyCode !== '' ? `${number} ${currencyCode}` : number;
}
