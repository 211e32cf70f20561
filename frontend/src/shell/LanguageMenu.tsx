// The nine languages, each named in itself; the choice is stored on the user (PUT /api/me) so the API's
// messages, mails and this editor follow it on every device.
import { useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { storeLocale } from '../api/me';
import { failureSentence } from '../api/failure';
import { isLocale, LOCALES, switchLocale, type Locale } from '../i18n/i18n';

// Written out (not built from the locale) so that the catalog guard sees every key.
export const NAMES: Record<Locale, string> = {
  en: 'ui_language_en',
  de: 'ui_language_de',
  fr: 'ui_language_fr',
  es: 'ui_language_es',
  it: 'ui_language_it',
  nl: 'ui_language_nl',
  pl: 'ui_language_pl',
  pt_BR: 'ui_language_pt_br',
  ja: 'ui_language_ja',
};

/** `store`: keep the choice on the user (signed in); `onProblem` hears whether storing it failed (the
 * sentence, in the language just chosen) or, on the next choice, null. */
export function LanguageMenu({
  store = true,
  onProblem,
}: {
  store?: boolean;
  onProblem?: (problem: string | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const latest = useRef(0); // the choice whose answer counts: an older one failing late says nothing

  async function choose(value: string) {
    if (!isLocale(value)) return;
    const mine = ++latest.current;
    await switchLocale(value);
    if (!store) return;
    onProblem?.(null);
    try {
      await storeLocale(value);
    } catch (failure) {
      // The page already reads the new language; the next sign-in on another device would not.
      if (mine === latest.current) onProblem?.(failureSentence(failure, i18n.getFixedT(value)));
      return;
    }
    await queries.invalidateQueries();
  }

  return (
    <label className="language">
      <span>{t('ui_language')}</span>
      <select value={i18n.language} onChange={(e) => void choose(e.target.value)}>
        {LOCALES.map((locale) => (
          <option key={locale} value={locale} lang={locale.replace('_', '-')}>
            {t(NAMES[locale])}
          </option>
        ))}
      </select>
    </label>
  );
}
