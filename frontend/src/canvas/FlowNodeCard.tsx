// One node on the canvas: its face (icon, label, type: NodeFace.tsx), a finding count, and its ports
// (CardPorts.tsx), which take wires by drag, by click and by keyboard.
import type { Node, NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { FlowNode } from '../flows/document';
import { RuleLine } from './RuleLine';
import { useWarnings } from './warnings';
import { NodeFace } from './NodeFace';
import { CardPorts } from './CardPorts';
import { looks } from './kinds';
import { formatList } from '../i18n/format';
import { usePlaced } from '../flows/findingSentences';
import type { Placed } from '../flows/findingText';

const NO_WARNINGS: string[] = [];
const NO_FINDINGS: Placed[] = [];

export type CardData = {
  node: FlowNode;
  findings: number;
  walked: boolean;
  order?: number[];
  paused?: boolean;
  diff?: 'added' | 'changed';
};
export type CardNode = Node<CardData, 'card'>;

export function FlowNodeCard({ data, selected, isConnectable }: NodeProps<CardNode>) {
  const { t } = useTranslation();
  const { node, findings } = data;
  const warnings = useWarnings((s) => s.byNode[node.id] ?? NO_WARNINGS);
  // The findings' sentences (the field and what to do), read on hovering or by a screen reader.
  const said = usePlaced((s) => s.byNode[node.id] ?? NO_FINDINGS);
  const classes = [
    'card',
    `card-${node.type}`,
    `kind-${looks(node.type).kind}`,
    selected ? 'selected' : '',
    findings ? 'has-findings' : '',
    data.walked ? 'walked' : '',
    data.paused ? 'paused' : '',
    data.diff ? `diff-${data.diff}` : '',
    warnings.length ? 'has-warnings' : '',
  ];
  return (
    <div className={classes.join(' ')} data-node={node.id}>
      <NodeFace node={node} />
      {(node.type === 'parallel' || node.type === 'join') && <RuleLine node={node} />}
      {warnings.length > 0 && (
        <span className="card-warnings" title={warnings.join('\n')}>
          {warnings.length}
        </span>
      )}
      {findings > 0 && (
        <span
          className="card-findings"
          title={
            said.length
              ? said.map((p) => p.sentence).join('\n')
              : t('ui_canvas_findings_count', { count: findings })
          }
        >
          {findings}
        </span>
      )}
      {data.order && (
        <span
          className="card-order"
          title={t('ui_walk_card_visits', { visits: formatList(data.order.map(String)) })}
        >
          {data.order.join(' · ')}
        </span>
      )}
      <CardPorts node={node} connectable={isConnectable} />
    </div>
  );
}
