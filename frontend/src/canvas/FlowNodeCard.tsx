// One node on the canvas: its type's name from the catalog, its id or label, a finding count, an input
// handle (not on the trigger: nothing leads into it) and one named handle per out port.
import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { portsOf, type FlowNode } from '../flows/document';
import { RuleLine } from './RuleLine';
import { portLabel } from './ports';
import { useWarnings } from './warnings';
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

export function FlowNodeCard({ data, selected }: NodeProps<CardNode>) {
  const { t } = useTranslation();
  const { node, findings } = data;
  const ports = portsOf(node);
  const warnings = useWarnings((s) => s.byNode[node.id] ?? NO_WARNINGS);
  // The findings' sentences (the field and what to do), read on hovering or by a screen reader.
  const said = usePlaced((s) => s.byNode[node.id] ?? NO_FINDINGS);
  const classes = [
    'card',
    `card-${node.type}`,
    selected ? 'selected' : '',
    findings ? 'has-findings' : '',
    data.walked ? 'walked' : '',
    data.paused ? 'paused' : '',
    data.diff ? `diff-${data.diff}` : '',
    warnings.length ? 'has-warnings' : '',
  ];
  return (
    <div className={classes.join(' ')} data-node={node.id}>
      {node.type !== 'trigger' && <Handle type="target" position={Position.Top} id="in" />}
      <div className="card-type">{t(`node_type_${node.type}`)}</div>
      <div className="card-id data">{node.label ?? node.id}</div>
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
        <span className="card-order" title={t('ui_walk_card_visits', { visits: data.order.join(', ') })}>
          {data.order.join(' · ')}
        </span>
      )}
      <div className="card-ports">
        {ports.map((port, i) => (
          <div key={port} className="card-port" style={{ left: `${((i + 1) * 100) / (ports.length + 1)}%` }}>
            <span className="card-port-name">{portLabel(t, node, port)}</span>
            <Handle type="source" position={Position.Bottom} id={port} data-port={port} />
          </div>
        ))}
      </div>
    </div>
  );
}
