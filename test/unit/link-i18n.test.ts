// Hosted Link's catalogues (functions/platform/link-ui/i18n): the type check already makes every
// language have every key; these check what types cannot: each translation keeps the English
// message's parameters, French typography, and how a language is picked.
import { DE } from '../../functions/platform/link-ui/i18n/de';
import { EN } from '../../functions/platform/link-ui/i18n/en';
import { ES } from '../../functions/platform/link-ui/i18n/es';
import { FR } from '../../functions/platform/link-ui/i18n/fr';
import { linkLanguageOf, negotiateLanguage, translator } from '../../functions/platform/link-ui/i18n';
import type { Catalogue, MessageKey } from '../../functions/platform/link-ui/i18n/catalogue';

const TRANSLATIONS: Record<string, Catalogue> = { es: ES, fr: FR, de: DE };

function parametersOf(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

describe('Link catalogues', () => {
  it.each(Object.keys(TRANSLATIONS))('%s keeps every parameter of the English message, and leaves none empty', (language) => {
    const catalogue = TRANSLATIONS[language]!;
    for (const key of Object.keys(EN) as MessageKey[]) {
      expect({ key, parameters: parametersOf(catalogue[key]) }).toEqual({ key, parameters: parametersOf(EN[key]) });
      expect({ key, empty: catalogue[key].trim() === '' }).toEqual({ key, empty: false });
    }
  });

  it('writes French with a no-break space before : ? ! and ; and typographic apostrophes', () => {
    for (const [key, message] of Object.entries(FR)) {
      expect({ key, breakingSpaceBefore: / [:?!;]/.test(message) }).toEqual({ key, breakingSpaceBefore: false });
      expect({ key, bareSign: /[^\u00a0\u202f(][:?!;](\s|$)/.test(message) && !/https?:/.test(message) }).toEqual({ key, bareSign: false });
      expect({ key, straightApostrophe: message.includes("'") }).toEqual({ key, straightApostrophe: false });
    }
  });

  it('fills parameters and leaves an unknown one visible', () => {
    const t = translator('fr');
    expect(t('consent.privateText', { client: 'Acme', products: 'opérations' })).toBe('Acme ne reçoit que les données que vous acceptez de partager\u00a0: opérations.');
    expect(translator('de')('search.countOther', { count: 3 })).toBe('3 Institute');
    expect(translator('en')('consent.heading', {})).toBe('{client} uses Fincore to connect your accounts');
  });

  it('picks the language: the token\u2019s when Link speaks it, the browser\u2019s preference for pages without a token, else English', () => {
    expect(linkLanguageOf('de')).toBe('de');
    expect(linkLanguageOf('it')).toBe('en');
    expect(linkLanguageOf(undefined)).toBe('en');
    expect(negotiateLanguage('fr-CH, fr;q=0.9, en;q=0.8')).toBe('fr');
    expect(negotiateLanguage('it-IT, de;q=0.7, es;q=0.9')).toBe('es');
    expect(negotiateLanguage('es;q=0, de')).toBe('de');
    expect(negotiateLanguage(['nl-NL', 'DE-at'])).toBe('de');
    expect(negotiateLanguage('*')).toBe('en');
    expect(negotiateLanguage(undefined)).toBe('en');
    expect(negotiateLanguage('')).toBe('en');
  });
});
