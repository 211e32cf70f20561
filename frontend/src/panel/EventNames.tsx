// A wait_event's event names: each is one of the node's out ports (before `timeout`), so the card's ports
// follow this list. A name whose port is wired is removed together with its wires in one edit, and the
// panel says so with an undo; a name the flow format refuses is refused here, with the rule.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EVENT_NAME, eventNames, setEvents, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';

export function EventNames({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const events = eventNames(node);
  const [typed, setTyped] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // The document right after a removal that cut wires, so the undo offered is that edit's and no later one's.
  const [cut, setCut] = useState<{ name: string; wires: number; after: unknown } | null>(null);

  function add() {
    const name = typed.trim();
    if (!EVENT_NAME.test(name) || name === 'timeout') return setProblem(t('ui_event_name_invalid', { name }));
    if (events.includes(name)) return setProblem(t('ui_event_name_taken', { name }));
    setProblem(null);
    setTyped('');
    useEditor.getState().apply(setEvents(useEditor.getState().doc, node.id, [...events, name]).doc);
  }

  function remove(name: string) {
    const edit = setEvents(
      useEditor.getState().doc,
      node.id,
      events.filter((e) => e !== name),
    );
    useEditor.getState().apply(edit.doc);
    setCut(edit.cut.length ? { name, wires: edit.cut.length, after: edit.doc } : null);
  }

  const current = useEditor((s) => s.doc);
  const canUndo = cut !== null && current === cut.after;
  return (
    <fieldset className="event-names">
      <legend>{t('ui_event_names')}</legend>
      <ul className="chips" aria-label={t('ui_event_names')}>
        {events.map((name) => (
          <li key={name} translate="no" data-event={name}>
            {name}
            <button
              type="button"
              disabled={readOnly}
              aria-label={t('ui_event_remove', { name })}
              onClick={() => remove(name)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <label className="field">
          {t('ui_event_new')}
          <input
            translate="no"
            value={typed}
            disabled={readOnly}
            spellCheck={false}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </label>
        <button type="button" disabled={readOnly || !typed.trim()} onClick={add}>
          {t('ui_event_add')}
        </button>
      </div>
      {problem && (
        <p role="alert" className="hint">
          {problem}
        </p>
      )}
      {cut && canUndo && (
        <p role="status" className="hint">
          {t('ui_event_wires_removed', { name: cut.name })}{' '}
          <button
            type="button"
            onClick={() => {
              useEditor.getState().undo();
              setCut(null);
            }}
          >
            {t('ui_event_undo')}
          </button>
        </p>
      )}
    </fieldset>
  );
}
