// The list view: the flow as an ordered, indented outline (the API's list view), usable with the
// keyboard and a screen reader. Everything the canvas does is here as a form control: add after the
// selected node, connect by choosing a target, reorder, delete. Read-only (`readOnly`: a user without the
// edit right, an old version, a phone) it offers none of that; `selectable` false (a phone, where no
// panel shows the choice) shows the steps as text, with nothing to press.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { flowKeys, listView } from '../api/flows';
import { failureSentence } from '../api/failure';
import { useDebounced, type Finding } from '../flows/findings';
import { useEditor } from '../flows/store';
import { ListActions } from './ListActions';
import { portLabel } from '../canvas/ports';

interface Props {
  findings: Finding[];
  readOnly: boolean;
  selectable?: boolean;
}

export function ListView({ findings, readOnly, selectable = true }: Props) {
  const { t } = useTranslation();
  const { doc, selected, select } = useEditor();
  const checked = useDebounced(doc, 150);
  const outline = useQuery({
    queryKey: flowKeys.listView(checked),
    queryFn: () => listView(checked),
    placeholderData: keepPreviousData,
  });
  const entries = outline.data?.nodes ?? [];
  const current = selected.length === 1 ? selected[0] : undefined;

  return (
    <div className="list-view">
      <h2 id="list-title">{t('ui_list_title')}</h2>
      {outline.error && <p role="alert">{failureSentence(outline.error, t)}</p>}
      <ol aria-labelledby="list-title" className="outline">
        {entries.map((entry) => {
          const node = doc.nodes.find((n) => n.id === entry.id);
          const count = findings.filter((f) => f.node === entry.id).length;
          const wires = doc.wires.filter((w) => w.from === entry.id);
          const label = t('ui_canvas_node_label', {
            type: t(`node_type_${entry.type}`),
            id: node?.label ?? entry.id,
          });
          const findingsNote = count > 0 && (
            <span className="outline-findings">{t('ui_canvas_findings_count', { count })}</span>
          );
          return (
            <li key={entry.id} style={{ marginLeft: `${entry.depth * 1.5}rem` }} aria-level={entry.depth + 1}>
              {selectable ? (
                <button
                  type="button"
                  className="outline-node"
                  aria-pressed={current === entry.id}
                  onClick={() => select([entry.id])}
                >
                  {label}
                  {findingsNote}
                </button>
              ) : (
                <span className="outline-node">
                  {label}
                  {findingsNote}
                </span>
              )}
              {wires.length > 0 && (
                <span className="outline-wires">
                  {wires
                    .map((w) =>
                      t('ui_list_wire', { port: portLabel(t, node, w.port ?? 'out'), target: w.to }),
                    )
                    .join(' · ')}
                </span>
              )}
            </li>
          );
        })}
      </ol>
      {current && !readOnly && <ListActions id={current} />}
    </div>
  );
}
