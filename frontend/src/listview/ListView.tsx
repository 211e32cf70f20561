// The list view: the flow as an ordered, indented outline (the API's list view), usable with the
// keyboard and a screen reader. Everything the canvas does is here as a form control: add after the
// selected node, connect by choosing a target, reorder, delete.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { failureSentence } from '../api/failure';
import { useDebounced, type Finding } from '../flows/findings';
import { useEditor } from '../flows/store';
import { ListActions } from './ListActions';
import { portLabel } from '../canvas/ports';

interface Entry {
  id: string;
  type: string;
  depth: number;
}

export function ListView({ findings }: { findings: Finding[] }) {
  const { t } = useTranslation();
  const { doc, selected, select } = useEditor();
  const checked = useDebounced(doc, 150);
  const outline = useQuery({
    queryKey: ['list-view', checked],
    queryFn: async () =>
      unwrap(await api.POST('/api/flows/list-view', { body: checked as unknown as Record<string, never> })),
    placeholderData: keepPreviousData,
  });
  const entries = (outline.data?.nodes ?? []) as Entry[];
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
          return (
            <li key={entry.id} style={{ marginLeft: `${entry.depth * 1.5}rem` }} aria-level={entry.depth + 1}>
              <button
                type="button"
                className="outline-node"
                aria-pressed={current === entry.id}
                onClick={() => select([entry.id])}
              >
                {t('ui_canvas_node_label', {
                  type: t(`node_type_${entry.type}`),
                  id: node?.label ?? entry.id,
                })}
                {count > 0 && (
                  <span className="outline-findings">{t('ui_canvas_findings_count', { count })}</span>
                )}
              </button>
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
      {current && <ListActions id={current} />}
    </div>
  );
}
