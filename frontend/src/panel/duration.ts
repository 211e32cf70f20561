// ISO 8601 durations (what the flow format stores: PT30M, PT4H, P2D) as people say them: a number and a
// unit, or, for a duration of several parts that the field cannot edit as one number (P1DT2H), words in
// the reader's language from the browser's own Intl data ("1 day and 2 hours").

export const UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks'] as const;
export type Unit = (typeof UNITS)[number];

const ONE_UNIT = /^P(?:(\d+)W|(\d+)D|T(\d+)H|T(\d+)M|T(\d+)S)$/;
// The flow format's own pattern (backend/graph/schemas): weeks, days, then hours, minutes and seconds.
const ANY = /^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
const BY_PLACE: Unit[] = ['weeks', 'days', 'hours', 'minutes', 'seconds'];
const INTL_UNIT: Record<Unit, string> = {
  seconds: 'second',
  minutes: 'minute',
  hours: 'hour',
  days: 'day',
  weeks: 'week',
};

/** A duration as one number and a unit; `null` when it has several parts (or is not one). */
export function parseDuration(value: string): { amount: string; unit: Unit } | null {
  const match = ONE_UNIT.exec(value);
  if (!match) return null;
  const place = match.slice(1).findIndex((part) => part !== undefined);
  return { amount: String(Number(match[place + 1])), unit: BY_PLACE[place] as Unit };
}

/** The ISO 8601 duration of a typed amount and a unit; `null` for an empty amount (no duration), and the
 * typed text itself when it is not a whole number, so the server's finding can say what is wrong. */
export function formatDuration(amount: string, unit: Unit): string | null {
  const text = amount.trim();
  if (text === '') return null;
  if (!/^\d+$/.test(text)) return text;
  const n = Number(text);
  switch (unit) {
    case 'weeks':
      return `P${n}W`;
    case 'days':
      return `P${n}D`;
    case 'hours':
      return `PT${n}H`;
    case 'minutes':
      return `PT${n}M`;
    default:
      return `PT${n}S`;
  }
}

/** The duration in words, in `locale` ("1 day and 2 hours"); `null` when it is not an ISO duration. */
export function durationWords(value: string, locale: string): string | null {
  const match = ANY.exec(value);
  if (!match) return null;
  const parts = BY_PLACE.flatMap((unit, i) => {
    const amount = match[i + 1];
    if (amount === undefined) return [];
    const format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: INTL_UNIT[unit],
      unitDisplay: 'long',
    });
    return [format.format(Number(amount))];
  });
  return new Intl.ListFormat(locale, { type: 'conjunction' }).format(parts);
}
