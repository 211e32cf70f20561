// What the editor does with the flow's document when the ['flow', id] query answers: on opening, and
// again whenever it refetches (the browser back online, a query invalidated). Only opening the flow, or
// the author asking (a version restored, "discard mine and open the newest": `reopen` in flows/open.ts),
// replaces what the author is editing; a refetch never takes unsaved edits away.

/** The editor as the answer finds it. */
export interface Editing {
  /** The flow this page has loaded since it was opened, or null before its first answer. */
  opened: number | null;
  /** The version the editor's document started from (its save names it as `base`). */
  version: number | null;
  /** Edits not saved yet, shown or put aside while an old version is read (store.ts `unsaved`). */
  dirty: boolean;
  /** An old version is shown read-only. */
  viewing: boolean;
}

/**
 * - `load`: the answer replaces the document (opening, or a newer version and nothing to lose);
 * - `ignore`: nothing newer than the editor has;
 * - `keep`: a newer version, but the author has unsaved edits: they stay, and the page says that a newer
 *   version exists (a save from the old base is refused with `flow_version_stale`, and the author chooses);
 * - `beneath`: a newer version while an old one is read, nothing unsaved: it becomes the newest under it,
 *   for "Back to the newest version".
 */
export type Arrival = 'load' | 'ignore' | 'keep' | 'beneath';

/**
 * @example
 * arrival({ opened: 7, version: 3, dirty: true, viewing: false }, 7, 4) // 'keep'
 */
export function arrival(editing: Editing, flowId: number, version: number): Arrival {
  if (editing.opened !== flowId || editing.version === null) return 'load';
  if (version <= editing.version) return 'ignore';
  if (editing.dirty) return 'keep';
  return editing.viewing ? 'beneath' : 'load';
}

/** The newer version to tell the author about, or null: the query has one the editor did not load. */
export function newerVersion(editing: Editing, flowId: number, version: number | undefined): number | null {
  if (version === undefined || editing.opened !== flowId || editing.viewing) return null;
  return editing.version !== null && version > editing.version ? version : null;
}
