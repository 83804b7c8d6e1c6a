// Hosted Link's translation layer, shared by the server-rendered page (../page.ts) and the page
// script (../browser): one catalogue per language (./en.ts is the source; the others are typed
// against its keys), and t(key, params), which fills `{name}` parameters. The language comes from
// the link token (link.token.create's `language`); unknown values fall back to English.
import type { LinkLanguage } from '../../../contracts/link-schemas';
import type { Catalogue, MessageKey } from './catalogue';
import { DE } from './de';
import { EN } from './en';
import { ES } from './es';
import { FR } from './fr';

export type { MessageKey } from './catalogue';
export type { LinkLanguage } from '../../../contracts/link-schemas';

const CATALOGUES: Readonly<Record<LinkLanguage, Catalogue>> = { en: EN, es: ES, fr: FR, de: DE };

export type MessageParams = Readonly<Record<string, string | number>>;
export type Translate = (key: MessageKey, params?: MessageParams) => string;

export function isLinkLanguage(value: unknown): value is LinkLanguage {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CATALOGUES, value);
}

/** The language to show: the one asked for when Link speaks it, else English. */
export function linkLanguageOf(value: unknown): LinkLanguage {
  return isLinkLanguage(value) ? value : 'en';
}

/**
 * The first language of an Accept-Language header (or navigator.languages) Link speaks, for pages
 * shown before a link token names one (the error page of an unusable token); English otherwise.
 */
export function negotiateLanguage(preferences: string | readonly string[] | null | undefined): LinkLanguage {
  const list = typeof preferences === 'string' ? preferences.split(',') : (preferences ?? []);
  const ranked = list
    .map((entry, index) => {
      const [tag = '', ...params] = entry.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { primary: tag.trim().toLowerCase().split('-')[0] ?? '', q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked.find((entry) => isLinkLanguage(entry.primary))?.primary as LinkLanguage | undefined ?? 'en';
}

/** t() for one language: the message with its `{name}` parameters filled in (unknown ones stay visible). */
export function translator(language: LinkLanguage): Translate {
  const catalogue = CATALOGUES[language] ?? EN;
  return (key, params) => {
    const message = catalogue[key] ?? EN[key];
    if (!params) return message;
    return message.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole));
  };
}
