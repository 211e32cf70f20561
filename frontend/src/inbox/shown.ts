// The values an approval shows its approver (the approval's `shown`, rendered by the server when the
// approval was asked): each as a labelled row, the label the author wrote or the template path made
// readable. Pure, so the rules are tested without a page (inbox.test.ts).
import type { ShownItem } from '../api/approvals';

/** What the server writes in place of a value under a credential's name. */
export const MASK = '••••';

export interface Row {
  key: string;
  /** The author's label, or the path made readable; never a template path's brackets and dots. */
  label: string;
  value: unknown;
  /** The whole value is a secret's mask. */
  masked: boolean;
  /** The item was masked somewhere inside: a field reading MASK is a secret, not the text "••••". */
  masks: boolean;
}

/** A template path as a reader names it: `trigger.invoice.due_date` reads "invoice › due date". The
 * leading `trigger` says where the value lives, not what it is, so it is left out when more follows. */
export function readablePath(path: string): string {
  const parts = path
    .split(/[.[\]]+/)
    .filter((part) => part !== '')
    .map((part) => part.replace(/[_-]+/g, ' ').trim());
  const named = parts.length > 1 && parts[0] === 'trigger' ? parts.slice(1) : parts;
  return named.join(' › ');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rows to show. An item without a label whose value is an object (the trigger's input, shown when
 * the author chose nothing) shows each of its fields as a row of its own. */
export function rows(items: readonly ShownItem[]): Row[] {
  return items.flatMap((item, index): Row[] => {
    const masks = item.masked === true;
    if (item.label === null && isRecord(item.value) && Object.keys(item.value).length > 0) {
      return Object.entries(item.value).map(([name, value]) => ({
        key: `${index}.${name}`,
        label: readablePath(name),
        value,
        masked: masks && value === MASK,
        masks,
      }));
    }
    return [
      {
        key: String(index),
        label: item.label ?? readablePath(item.path),
        value: item.value,
        masked: masks && item.value === MASK,
        masks,
      },
    ];
  });
}

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MOMENT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Longer than this many characters, a text is folded behind "Show all". */
export const FOLD_TEXT = 200;
/** More than this many fields or items, a list is folded behind "Show all". */
export const FOLD_ITEMS = 6;

/** Whether a value is long enough to fold. */
export function long(value: unknown): boolean {
  if (typeof value === 'string') return value.length > FOLD_TEXT || value.split('\n').length > 4;
  if (Array.isArray(value)) return value.length > FOLD_ITEMS;
  if (isRecord(value)) return Object.keys(value).length > FOLD_ITEMS;
  return false;
}
