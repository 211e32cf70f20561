// A node on the run page: the editor's card face (icon, label, type) with its ports, unconnectable, so
// wires leave from the same ports as in the editor; visited, not visited, or waiting; a loop's body shows
// how often a node was visited.
import type { Node, NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { FlowNode } from '../flows/document';
import { NodeFace } from '../canvas/NodeFace';
import { CardPorts } from '../canvas/CardPorts';
import { looks } from '../canvas/kinds';

export type RunCardData = { node: FlowNode; visits: number; waiting: boolean };
export type RunCardNode = Node<RunCardData, 'run'>;

export function RunCard({ data }: NodeProps<RunCardNode>) {
  const { t } = useTranslation();
  const { node, visits, waiting } = data;
  return (
    <div
      className={`card card-${node.type} kind-${looks(node.type).kind}`}
      data-node={node.id}
      data-visits={visits}
    >
      <NodeFace node={node} />
      {visits > 1 && <span className="visits">×{visits}</span>}
      {waiting && <span className="waits">{t('ui_run_waits_here')}</span>}
      <CardPorts node={node} connectable={false} />
    </div>
  );
}
