// "What approvers see": the approval node's `show` as rows an author fills without writing JSON. Each row
// is a label (a template, like the title) and a value chosen from what is in scope at the node (scope.ts),
// or a path typed for a field the scope does not know. No rows is the default, the run's input; the limit
// disables adding and says so.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ScopeEntry } from './scope';
import { choiceName, moved, nextValue, SHOW_LIMIT, showConfig, showRows, type ShowRow } from './show';
import { TemplateInput } from './TemplateInput';
import { useScope } from './useScope';
import './panels.css';

// The select's choice that opens a text field for a path; no scope path is empty, so it never clashes.
const TYPED = '';

interface Props {
  nodeId: string;
  show: unknown;
  readOnly: boolean;
  change: (patch: Record<string, unknown>) => void;
}

export function ShownField({ nodeId, show, readOnly, change }: Props) {
  const { t } = useTranslation();
  const scope = useScope(nodeId);
  const rows = showRows(show);
  // Rows whose author chose to type a path although the value is one the list offers.
  const [typing, setTyping] = useState<ReadonlySet<number>>(new Set());
  const full = rows.length >= SHOW_LIMIT;
  // The input's fields are known from the walk's sample input only; without one, say where they come from.
  const fieldsKnown = scope.some((entry) => entry.kind === 'trigger' && entry.path.includes('.'));

  function write(next: ShowRow[]) {
    change({ show: showConfig(next) });
  }
  function edit(index: number, patch: Partial<ShowRow>) {
    write(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  }
  function rearrange(next: ShowRow[]) {
    setTyping(new Set());
    write(next);
  }

  return (
    <fieldset className="shown-field">
      <legend>{t('ui_show_legend')}</legend>
      {rows.length === 0 && <p className="hint">{t('ui_show_default')}</p>}
      <ol className="shown-rows">
        {rows.map((row, index) => {
          const position = String(index + 1);
          const id = `show-${nodeId}-${index}`;
          const known = scope.some((entry) => entry.path === row.value);
          const typed = typing.has(index) || !known;
          return (
            <li key={index}>
              <div role="group" aria-label={t('ui_show_row', { position })}>
                <label htmlFor={`${id}-label`}>{t('ui_show_label')}</label>
                <TemplateInput
                  id={`${id}-label`}
                  nodeId={nodeId}
                  value={row.label}
                  multiline={false}
                  disabled={readOnly}
                  onChange={(label) => edit(index, { label })}
                />
                <label htmlFor={`${id}-value`}>{t('ui_show_value')}</label>
                <select
                  id={`${id}-value`}
                  value={typed ? TYPED : row.value}
                  disabled={readOnly}
                  onChange={(e) => {
                    const value = e.target.value;
                    const rest = new Set(typing);
                    if (value === TYPED) rest.add(index);
                    else rest.delete(index);
                    setTyping(rest);
                    if (value !== TYPED) edit(index, { value });
                  }}
                >
                  <Choices scope={scope} />
                  <option value={TYPED}>{t('ui_show_choice_typed')}</option>
                </select>
                {typed && (
                  <>
                    <label htmlFor={`${id}-path`}>{t('ui_show_path')}</label>
                    <input
                      id={`${id}-path`}
                      translate="no"
                      value={row.value}
                      disabled={readOnly}
                      spellCheck={false}
                      onChange={(e) => edit(index, { value: e.target.value.trim() })}
                    />
                  </>
                )}
                <div className="row">
                  <button
                    type="button"
                    disabled={readOnly || index === 0}
                    aria-label={t('ui_show_up', { position })}
                    onClick={() => rearrange(moved(rows, index, -1))}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={readOnly || index === rows.length - 1}
                    aria-label={t('ui_show_down', { position })}
                    onClick={() => rearrange(moved(rows, index, 1))}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    disabled={readOnly}
                    aria-label={t('ui_show_remove', { position })}
                    onClick={() => rearrange(rows.filter((_, i) => i !== index))}
                  >
                    ×
                  </button>
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {!fieldsKnown && !readOnly && <p className="hint">{t('ui_show_sample_hint')}</p>}
      <button
        type="button"
        disabled={readOnly || full}
        onClick={() => write([...rows, { label: '', value: nextValue(rows, scope) }])}
      >
        {t(rows.length === 0 ? 'ui_show_choose' : 'ui_show_add')}
      </button>
      {full && <p className="hint">{t('ui_show_limit', { count: SHOW_LIMIT, limit: SHOW_LIMIT })}</p>}
    </fieldset>
  );
}

function Choices({ scope }: { scope: readonly ScopeEntry[] }) {
  const { t } = useTranslation();
  return (
    <>
      {scope.map((entry) => (
        <option key={entry.path} value={entry.path}>
          {choiceName(entry, (key, params) => t(key, params ?? {}))}
        </option>
      ))}
    </>
  );
}
