// The wait rule on a parallel's or a join's card: "Waits for all", "Goes on at the first", "Waits for 2
// of 3", counted against its branches (a parallel; one per item over items) or the wires that lead into it
// (a join).
import { useTranslation } from 'react-i18next';
import { incomingCount, portOf, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { overItems, waitRule, waitText } from './waitRule';

export function RuleLine({ node }: { node: FlowNode }) {
  const { t } = useTranslation();
  const total = useEditor((s) =>
    node.type === 'join'
      ? incomingCount(s.doc, node.id)
      : s.doc.wires.filter((w) => w.from === node.id && portOf(w) === 'branches').length,
  );
  const over = node.type === 'parallel' && overItems(node.config);
  return <div className="card-rule">{waitText(t, waitRule(node.config), over ? null : total)}</div>;
}
