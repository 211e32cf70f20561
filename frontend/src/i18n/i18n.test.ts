import { describe, expect, it } from 'vitest';
import { bcp47, isLocale } from './i18n';

describe('locales', () => {
  it('knows the nine catalogs and writes gettext names as BCP 47', () => {
    expect(isLocale('pt_BR')).toBe(true);
    expect(isLocale('pt')).toBe(false);
    expect(bcp47('pt_BR')).toBe('pt-BR');
  });
});

describe('plural forms', () => {
  it("picks the form of the count from the catalog's flat plural keys", async () => {
    const { default: i18next } = await import('./i18n');
    i18next.addResourceBundle('pl', 'translation', {
      ui_inbox_count: '{count} zatwierdzeń czeka',
      ui_inbox_count_one: '{count} zatwierdzenie czeka',
      ui_inbox_count_few: '{count} zatwierdzenia czekają',
      ui_inbox_count_many: '{count} zatwierdzeń czeka',
      ui_inbox_count_other: '{count} zatwierdzeń czeka',
    });
    const t = i18next.getFixedT('pl');
    expect(t('ui_inbox_count', { count: 1 })).toBe('1 zatwierdzenie czeka');
    expect(t('ui_inbox_count', { count: 3 })).toBe('3 zatwierdzenia czekają');
    expect(t('ui_inbox_count', { count: 5 })).toBe('5 zatwierdzeń czeka');
  });
});
