// What the list view can do to the selected node, each a labelled form control.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { connect, NODE_TYPES, portsOf, removeNodes, removeWires } from '../flows/document';
import { authoredPort, portLabel } from '../canvas/ports';
import { useEditor } from '../flows/store';
import { addAfter, moveInOrder } from './outline';

export function ListActions({ id }: { id: string }) {
  const { t } = useTranslation();
  const { doc, apply, select } = useEditor();
  const node = doc.nodes.find((n) => n.id === id);
  const ports = portsOf(node);
  const [port, setPort] = useState(ports[0] ?? 'out');
  const [type, setType] = useState('log');
  const [target, setTarget] = useState('');
  if (!node) return null;
  const chosenPort = ports.includes(port) ? port : (ports[0] ?? 'out');
  const targets = doc.nodes.filter((n) => n.id !== id && n.type !== 'trigger');

  return (
    <section className="list-actions" aria-labelledby="list-actions-title">
      <h3 id="list-actions-title">{t('ui_list_actions_title', { id })}</h3>
      {ports.length > 0 && (
        <label className="field">
          {t('ui_list_port')}
          <select value={chosenPort} onChange={(e) => setPort(e.target.value)}>
            {ports.map((p) => (
              <option key={p} value={p} translate={authoredPort(node, p) ? 'no' : undefined}>
                {portLabel(t, node, p)}
              </option>
            ))}
          </select>
        </label>
      )}
      {ports.length > 0 && (
        <div className="row">
          <label className="field">
            {t('ui_list_type')}
            <select value={type} onChange={(e) => setType(e.target.value)}>
              {NODE_TYPES.map((nodeType) => (
                <option key={nodeType} value={nodeType}>
                  {t(`node_type_${nodeType}`)}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => {
              const edit = addAfter(doc, id, chosenPort, type);
              apply(edit);
              if ('id' in edit && edit.id) select([edit.id]);
            }}
          >
            {t('ui_list_add_after')}
          </button>
        </div>
      )}
      {ports.length > 0 && (
        <div className="row">
          <label className="field">
            {t('ui_list_target')}
            <select value={target} onChange={(e) => setTarget(e.target.value)}>
              <option value="">{t('ui_list_target_none')}</option>
              {targets.map((n) => (
                <option key={n.id} value={n.id} translate="no">
                  {n.label ?? n.id}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!target}
            onClick={() => apply(connect(doc, id, chosenPort, target))}
          >
            {t('ui_list_connect')}
          </button>
        </div>
      )}
      <ul className="list-wires">
        {doc.wires.map((w, i) =>
          w.from === id ? (
            <li key={i}>
              {t('ui_list_wire', { port: portLabel(t, node, w.port ?? 'out'), target: w.to })}
              <button type="button" onClick={() => apply(removeWires(doc, [i]))}>
                {t('ui_list_remove_wire', { target: w.to })}
              </button>
            </li>
          ) : null,
        )}
      </ul>
      <div className="row">
        <button type="button" onClick={() => apply(moveInOrder(doc, id, -1))}>
          {t('ui_form_move_up')}
        </button>
        <button type="button" onClick={() => apply(moveInOrder(doc, id, 1))}>
          {t('ui_form_move_down')}
        </button>
        <button
          type="button"
          onClick={() => {
            apply(removeNodes(doc, [id]));
            select([]);
          }}
        >
          {t('ui_list_delete', { id })}
        </button>
      </div>
    </section>
  );
}
