// i18next fed by the server's catalogs (GET /api/i18n/{locale}): one set of .po files for the backend
// and the editor. Keys are flat (no dots), placeholders are `{name}` as in the backend's sentences.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { fetchCatalog } from '../api/me';
import { countFormatter } from './format';

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt_BR', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** The pseudo-locale (docs/i18n.md): asked for by name only, never offered in the language menu. */
export const PSEUDO_LOCALE = 'en_XA';
export type Readable = Locale | typeof PSEUDO_LOCALE;

export function isReadable(value: string): value is Readable {
  return value === PSEUDO_LOCALE || isLocale(value);
}

/** BCP 47 for the html lang attribute and Intl (pt_BR is a gettext name). */
export function bcp47(locale: Readable): string {
  return locale.replace('_', '-');
}

void i18next
  .use(initReactI18next)
  .use(countFormatter)
  .init({
    lng: 'en',
    fallbackLng: 'en',
    resources: {},
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false, prefix: '{', suffix: '}', alwaysFormat: true },
    returnEmptyString: false,
    react: { useSuspense: false, bindI18nStore: 'added' },
  });

/** Loads a locale's catalog from the server once, then switches to it. */
export async function switchLocale(locale: Readable): Promise<void> {
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    i18next.addResourceBundle(locale, 'translation', await fetchCatalog(locale));
  }
  await i18next.changeLanguage(locale);
  document.documentElement.lang = bcp47(locale);
}

let readerZone: string | undefined;

/** The signed-in user's IANA time zone (from /api/me); until it is known, the browser's. */
export function setReaderZone(zone: string | null | undefined): void {
  readerZone = zone ?? undefined;
}

/** The zone the reader reads dates in: their own (from /api/me), until it is known the browser's. */
export function readerTimeZone(): string {
  return readerZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A date and time in the reader's language and zone, the zone named (timeStyle 'long' names it). */
export function formatMoment(iso: string): string {
  return new Intl.DateTimeFormat(i18next.language.replace('_', '-'), {
    dateStyle: 'medium',
    timeStyle: 'long',
    timeZone: readerTimeZone(),
  }).format(new Date(iso));
}

/** The browser's preferred locale among ours, for the login page (before the user's own is known). */
export function browserLocale(): Readable {
  for (const tag of navigator.languages) {
    const exact = tag.replace('-', '_');
    if (isReadable(exact)) return exact;
    const base = tag.split('-')[0] ?? '';
    if (isLocale(base)) return base;
  }
  return 'en';
}

export default i18next;
