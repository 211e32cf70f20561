import { describe, expect, it } from 'vitest';
import { bcp47, isLocale } from './i18n';

describe('locales', () => {
  it('knows the nine catalogs and writes gettext names as BCP 47', () => {
    expect(isLocale('pt_BR')).toBe(true);
    expect(isLocale('pt')).toBe(false);
    expect(bcp47('pt_BR')).toBe('pt-BR');
  });
});
