// The values an approval shows (the amount, the invoice, the trigger's input): a definition list, numbers
// and dates in the reader's locale, a secret as a mask with a sentence for screen readers, a long value
// folded behind "Show all". Values are text, never HTML; an object is a nested list, never JSON braces.
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatMoment } from '../i18n/i18n';
import type { ShownItem } from '../api/approvals';
import { DATE, FOLD_ITEMS, FOLD_TEXT, isRecord, long, MASK, MOMENT, readablePath, rows } from './shown';
import './inbox.css';

// Deeper than this, a value is written as indented text: a list in a list in a list reads no better.
const DEPTH = 3;

export function ShownValues({ items, compact = false }: { items: readonly ShownItem[]; compact?: boolean }) {
  const { t } = useTranslation();
  const shown = rows(items);
  if (shown.length === 0) return null;
  return (
    <dl className={compact ? 'shown compact' : 'shown'} aria-label={t('ui_shown_label')}>
      {shown.map((row) => (
        <div key={row.key} className="shown-row">
          <dt translate="no">{row.label}</dt>
          <dd>{row.masked ? <Masked /> : <Folded value={row.value} depth={0} masks={row.masks} />}</dd>
        </div>
      ))}
    </dl>
  );
}

function Masked() {
  const { t } = useTranslation();
  return (
    <span className="masked">
      <span aria-hidden="true">{MASK}</span>
      <span className="visually-hidden">{t('ui_shown_masked')}</span>
    </span>
  );
}

interface Shown {
  value: unknown;
  depth: number;
  /** Inside a masked item: a field reading MASK is a secret. */
  masks: boolean;
}

function Folded({ value, depth, masks }: Shown) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!long(value)) return <Value value={value} depth={depth} masks={masks} />;
  const part: unknown =
    open || (typeof value !== 'string' && !Array.isArray(value) && !isRecord(value))
      ? value
      : typeof value === 'string'
        ? `${value.slice(0, FOLD_TEXT).split('\n').slice(0, 4).join('\n')}…`
        : Array.isArray(value)
          ? value.slice(0, FOLD_ITEMS)
          : Object.fromEntries(Object.entries(value as Record<string, unknown>).slice(0, FOLD_ITEMS));
  return (
    <>
      <Value value={part} depth={depth} masks={masks} />{' '}
      <button type="button" className="fold" aria-expanded={open} onClick={() => setOpen(!open)}>
        {t(open ? 'ui_shown_show_less' : 'ui_shown_show_all')}
      </button>
    </>
  );
}

/** "no" (translate="no") when every value is the run's own data, written as it is or by Intl; yes, no
 * and "missing" are the catalog's words. */
function verbatim(values: unknown[]): 'no' | undefined {
  return values.every((v) => v !== null && v !== undefined && typeof v !== 'boolean') ? 'no' : undefined;
}

/** A value that is no list or object, as the reader's locale writes it. */
function scalar(value: unknown, locale: string, t: TFunction): string {
  if (value === null || value === undefined) return t('ui_shown_missing');
  if (typeof value === 'boolean') return t(value ? 'ui_shown_yes' : 'ui_shown_no');
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if (typeof value === 'string') {
    if (DATE.test(value) && !Number.isNaN(Date.parse(value))) {
      return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(value),
      );
    }
    if (MOMENT.test(value) && !Number.isNaN(Date.parse(value))) return formatMoment(value);
    return value;
  }
  return JSON.stringify(value, null, 2);
}

function Value({ value, depth, masks }: Shown) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language.replace('_', '-');
  if (value === null || value === undefined) return <em className="missing">{scalar(value, locale, t)}</em>;
  if (masks && value === MASK) return <Masked />;
  if (typeof value === 'string' && (DATE.test(value) || MOMENT.test(value))) {
    return (
      <time dateTime={value} translate="no">
        {scalar(value, locale, t)}
      </time>
    );
  }
  if (depth >= DEPTH || (!Array.isArray(value) && !isRecord(value))) {
    return (
      <span className="text" translate={verbatim([value])}>
        {scalar(value, locale, t)}
      </span>
    );
  }
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) {
      const list = new Intl.ListFormat(locale, { style: 'long', type: 'unit' });
      return (
        <span className="text" translate={verbatim(value)}>
          {list.format(value.map((v) => scalar(v, locale, t)))}
        </span>
      );
    }
    return (
      <ol className="nested">
        {value.map((v, i) => (
          <li key={i}>
            <Folded value={v} depth={depth + 1} masks={masks} />
          </li>
        ))}
      </ol>
    );
  }
  return (
    <dl className="nested">
      {Object.entries(value).map(([name, v]) => (
        <div key={name} className="shown-row">
          <dt translate="no">{readablePath(name)}</dt>
          <dd>
            <Folded value={v} depth={depth + 1} masks={masks} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
