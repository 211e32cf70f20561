// Lists, counts and time left as the reader's language writes them (Intl, in the page's locale), so that
// no sentence joins words with ", " or writes 12345 where a German reads 12.345. The locale is i18next's
// (a gettext name such as pt_BR), written as BCP 47 for Intl.
import i18next from 'i18next';

function tag(locale?: string): string {
  return (locale ?? i18next.language ?? 'en').replace('_', '-');
}

/** Items as one list of the reader's language: "a, b and c", "a, b und c", "a、b、c". */
export function formatList(
  items: readonly string[],
  type: Intl.ListFormatType = 'conjunction',
  locale?: string,
): string {
  return new Intl.ListFormat(tag(locale), { style: 'long', type }).format(items);
}

/** What goes between two whole sentences: a space, none after Japanese 。. */
export function sentenceGap(locale?: string): string {
  return tag(locale).startsWith('ja') ? '' : ' ';
}

/** Whole sentences one after another, as the language writes them. */
export function joinSentences(sentences: readonly string[], locale?: string): string {
  return sentences.filter(Boolean).join(sentenceGap(locale));
}

/** A count grouped as the reader's language groups it: 12,345 / 12.345 / 12 345. */
export function formatNumber(value: number, locale?: string): string {
  return new Intl.NumberFormat(tag(locale)).format(value);
}

/** A time zone as the reader's language names it ("Mitteleuropäische Zeit", not Europe/Berlin). */
export function zoneName(zone: string, locale?: string): string {
  const parts = new Intl.DateTimeFormat(tag(locale), {
    timeZone: zone,
    timeZoneName: 'longGeneric',
  }).formatToParts(new Date());
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? zone;
}

export interface Left {
  days: number;
  hours: number;
  minutes: number;
}

/** Time left in the reader's words, leading units that are zero left out ("23 hours, 5 minutes", never
 * "0 days 23 hours"); under a minute reads "0 minutes". */
export function formatLeft(left: Left, locale?: string): string {
  const units: [keyof Left, Intl.NumberFormatOptions['unit']][] = [
    ['days', 'day'],
    ['hours', 'hour'],
    ['minutes', 'minute'],
  ];
  const first = units.findIndex(([name]) => left[name] > 0);
  const shown = first < 0 ? units.slice(-1) : units.slice(first).filter(([name]) => left[name] > 0);
  const parts = shown.map(([name, unit]) =>
    new Intl.NumberFormat(tag(locale), { style: 'unit', unit, unitDisplay: 'long' }).format(left[name]),
  );
  return new Intl.ListFormat(tag(locale), { style: 'long', type: 'unit' }).format(parts);
}

/** i18next's formatter (i18n.ts): every `{count}` is grouped in the reader's locale. Other numbers are left
 * alone: most are identifiers (run 12345, version 10), which no reader groups; a count under another
 * name is passed already formatted (`formatNumber`). */
export const countFormatter = {
  type: 'formatter' as const,
  init() {},
  add() {},
  addCached() {},
  format(value: unknown, _format: string | undefined, lng: string | undefined, options?: object) {
    const key = (options as { interpolationkey?: string } | undefined)?.interpolationkey;
    return key === 'count' && typeof value === 'number' ? formatNumber(value, lng) : value;
  },
};
