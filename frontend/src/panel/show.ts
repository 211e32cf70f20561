// The approval node's `show` list as the panel edits it (ShownField.tsx): what the config holds read as
// rows, the rows written back (a list left empty means "show the trigger's input", so it is left out), and
// a variable in scope named the way an author says it. Pure, so the rules are tested without a page.
import { readablePath } from '../inbox/shown';
import type { ScopeEntry } from './scope';

/** The schema's `maxItems` (backend/graph/schemas/nodes/approval.schema.json). */
export const SHOW_LIMIT = 20;

export interface ShowRow {
  label: string;
  value: string;
}

/** The rows of a config's `show`; anything that is not a list of items with a text value reads as none
 * (the server's findings name such a document; the panel never guesses what it meant). */
export function showRows(show: unknown): ShowRow[] {
  if (!Array.isArray(show)) return [];
  return show.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { label, value } = item as Record<string, unknown>;
    return typeof value === 'string' ? [{ label: typeof label === 'string' ? label : '', value }] : [];
  });
}

/** The config's `show` for `rows`: an empty label is left out of its item, and no rows at all is no
 * `show` (undefined, which the panel's `change` drops from the config). */
export function showConfig(rows: readonly ShowRow[]): { label?: string; value: string }[] | undefined {
  if (rows.length === 0) return undefined;
  return rows.map((row) => (row.label ? { label: row.label, value: row.value } : { value: row.value }));
}

/** The value a new row starts with: the first thing in scope not shown yet, a field before a whole
 * object (the trigger's input is what is shown without `show`); `trigger` when everything is. */
export function nextValue(rows: readonly ShowRow[], scope: readonly ScopeEntry[]): string {
  const shown = new Set(rows.map((row) => row.value));
  const free = scope.filter((entry) => !shown.has(entry.path));
  const field = free.find((entry) => entry.path.includes('.'));
  return (field ?? free[0])?.path ?? 'trigger';
}

/** `rows` with the row at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moved<T>(rows: readonly T[], index: number, step: -1 | 1): T[] {
  const to = index + step;
  const next = [...rows];
  if (to < 0 || to >= rows.length) return next;
  [next[index], next[to]] = [next[to] as T, next[index] as T];
  return next;
}

/** The fields of nodes' outputs that scope.ts knows, each with its catalog key. */
export const OUTPUT_FIELD_KEYS: Record<string, string> = {
  outcome: 'ui_show_field_outcome',
  decided_by: 'ui_show_field_decided_by',
  decided_at: 'ui_show_field_decided_at',
  comment: 'ui_show_field_comment',
  status: 'ui_show_field_status',
  headers: 'ui_show_field_headers',
  body: 'ui_show_field_body',
  url: 'ui_show_field_url',
  channel: 'ui_show_field_channel',
  server: 'ui_show_field_server',
};

type Translate = (key: string, params?: Record<string, string>) => string;

/** How a choice of the value list reads, in the reader's language. A field of the trigger's input is
 * written as readablePath writes it in the inbox ("invoice › due date"); a known field of an output by
 * its catalog name. */
export function choiceName(entry: ScopeEntry, t: Translate): string {
  const [root = '', ...rest] = entry.path.split('.');
  const inner = rest.join('.');
  if (entry.kind === 'trigger')
    return inner ? t('ui_show_choice_input_field', { key: readablePath(inner) }) : t('ui_show_choice_input');
  if (entry.kind === 'loop') return t('ui_show_choice_loop', { name: root });
  if (entry.kind === 'set') return t('ui_show_choice_variable', { name: entry.path });
  if (!inner) return t('ui_show_choice_output', { node: root });
  const known = OUTPUT_FIELD_KEYS[inner];
  return t('ui_show_choice_output_field', { node: root, key: known ? t(known) : readablePath(inner) });
}
