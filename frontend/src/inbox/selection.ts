// Which approval the inbox shows, by id and never by position: a live update adds to the list without
// moving the card being read, and a card that leaves the list is never silently replaced by another.
// Pure functions, so the rules are tested without a page (inbox.test.ts).

interface Listed {
  id: number;
  title: string;
}

/** The card the inbox shows (`id`), or why it shows none: the one being read left the list (`gone`). */
export interface Selection {
  id: number | null;
  gone: Listed | null;
}

export const NOTHING: Selection = { id: null, gone: null };

/** The selection after the list changed from `before` to `after`. `decidedHere` holds the approvals the
 * person decided on this page: after one of those the next request is shown (un-armed: a card is a new
 * component per id); any other card that left was decided or withdrawn elsewhere, and the page says so
 * rather than show another request in its place.
 *
 * Examples: a card still listed stays, wherever it moved; the first card is chosen only when none was. */
export function follow(
  selection: Selection,
  before: readonly Listed[],
  after: readonly Listed[],
  decidedHere: ReadonlySet<number>,
): Selection {
  const { id } = selection;
  if (id === null) {
    if (selection.gone) return selection;
    const first = after[0];
    return first ? { id: first.id, gone: null } : NOTHING;
  }
  if (after.some((a) => a.id === id)) return selection;
  if (decidedHere.has(id)) return { id: neighbour(before, after, id), gone: null };
  const left = before.find((a) => a.id === id);
  return { id: null, gone: left ? { id: left.id, title: left.title } : { id, title: '' } };
}

/** The request that followed `id` in `before` and is still listed, else the one before it, else the
 * first one left: the reader carries on down the list. */
export function neighbour(before: readonly Listed[], after: readonly Listed[], id: number): number | null {
  const still = new Set(after.map((a) => a.id));
  const at = before.findIndex((a) => a.id === id);
  if (at >= 0) {
    const below = before.slice(at + 1).find((a) => still.has(a.id));
    if (below) return below.id;
    const above = before
      .slice(0, at)
      .reverse()
      .find((a) => still.has(a.id));
    if (above) return above.id;
  }
  return after[0]?.id ?? null;
}

/** The card `by` places away from `id` (j/k), stopping at either end; the first one when none is shown. */
export function step(list: readonly Listed[], id: number | null, by: number): number | null {
  const at = list.findIndex((a) => a.id === id);
  if (at < 0) return list[0]?.id ?? null;
  return list[Math.max(0, Math.min(list.length - 1, at + by))]?.id ?? null;
}

/** How many of `after` were not known before (`known`): the arrivals a live update brought. */
export function arrivals(known: ReadonlySet<number>, after: readonly Listed[]): number {
  return after.filter((a) => !known.has(a.id)).length;
}
