import { describe, expect, it } from 'vitest';
import i18next from './i18n';
import { formatLeft, formatList, formatNumber, joinSentences, zoneName } from './format';

describe('lists', () => {
  it('joins items as the reader’s language does, never with a bare comma', () => {
    expect(formatList(['Anna', 'Ben', 'Cleo'], 'conjunction', 'en')).toBe('Anna, Ben, and Cleo');
    expect(formatList(['Anna', 'Ben', 'Cleo'], 'conjunction', 'de')).toBe('Anna, Ben und Cleo');
    expect(formatList(['Anna', 'Ben'], 'conjunction', 'ja')).toBe('Anna、Ben');
    expect(formatList(['Anna', 'Ben'], 'disjunction', 'pt_BR')).toBe('Anna ou Ben');
    expect(formatList(['Anna'], 'conjunction', 'fr')).toBe('Anna');
  });
});

describe('numbers', () => {
  it('groups a count as the locale groups it', () => {
    expect(formatNumber(12345, 'en')).toBe('12,345');
    expect(formatNumber(12345, 'de')).toBe('12.345');
    expect(formatNumber(1234567, 'fr')).toBe('1\u202f234\u202f567');
    expect(formatNumber(12345, 'pt_BR')).toBe('12.345');
  });

  it('groups {count} in a sentence but leaves other numbers (identifiers) alone', async () => {
    i18next.addResourceBundle('de', 'translation', {
      ui_inbox_count: '{count} Genehmigungen in Lauf {run}',
      ui_inbox_count_one: '{count} Genehmigung in Lauf {run}',
      ui_inbox_count_other: '{count} Genehmigungen in Lauf {run}',
    });
    const t = i18next.getFixedT('de');
    expect(t('ui_inbox_count', { count: 12345, run: 67890 })).toBe('12.345 Genehmigungen in Lauf 67890');
    expect(t('ui_inbox_count', { count: 1, run: 7 })).toBe('1 Genehmigung in Lauf 7');
  });
});

describe('time left', () => {
  it('leaves out leading units that are zero', () => {
    expect(formatLeft({ days: 0, hours: 23, minutes: 5 }, 'de')).toBe('23 Stunden, 5 Minuten');
    expect(formatLeft({ days: 1, hours: 3, minutes: 4 }, 'en')).toBe('1 day, 3 hours, 4 minutes');
    expect(formatLeft({ days: 0, hours: 0, minutes: 1 }, 'pl')).toBe('1 minuta');
    expect(formatLeft({ days: 0, hours: 0, minutes: 5 }, 'pl')).toBe('5 minut');
  });

  it('leaves out a zero unit between others and reads 0 minutes at the end', () => {
    expect(formatLeft({ days: 2, hours: 0, minutes: 30 }, 'en')).toBe('2 days, 30 minutes');
    expect(formatLeft({ days: 0, hours: 0, minutes: 0 }, 'en')).toBe('0 minutes');
    expect(formatLeft({ days: 0, hours: 2, minutes: 0 }, 'ja')).toBe('2 時間');
  });
});

describe('time zones', () => {
  it('names a zone in the reader’s words, not by its IANA id', () => {
    expect(zoneName('Europe/Berlin', 'de')).toBe('Mitteleuropäische Zeit');
    expect(zoneName('Asia/Tokyo', 'ja')).toBe('日本標準時');
    expect(zoneName('America/New_York', 'en')).toBe('Eastern Time');
  });
});

describe('sentences', () => {
  it('puts a space between sentences, none after Japanese 。', () => {
    expect(joinSentences(['Frist: morgen.', 'Dann wird abgelehnt.'], 'de')).toBe(
      'Frist: morgen. Dann wird abgelehnt.',
    );
    expect(joinSentences(['期限：明日。', 'その後却下されます。'], 'ja')).toBe(
      '期限：明日。その後却下されます。',
    );
    expect(joinSentences(['Only one.', ''], 'en')).toBe('Only one.');
  });
});
