// The flow as the run saw it: the pinned version's nodes laid out by dagre, read-only. Visited nodes and
// the wires between them are the path taken; a loop body shows its visit count; the waiting node is
// marked. React Flow's nodes and edges are derived from the document, never edited here.
import { useMemo } from 'react';
import dagre from '@dagrejs/dagre';
import { Background, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from './types';

const WIDTH = 170;
const HEIGHT = 56;

interface Props {
  document: FlowDocument;
  visits: Record<string, number>;
  waitingAt: string | null;
}

export function layout(document: FlowDocument): Map<string, { x: number; y: number }> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: 'LR', nodesep: 30, ranksep: 60 });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of document.nodes) graph.setNode(node.id, { width: WIDTH, height: HEIGHT });
  for (const wire of document.wires) graph.setEdge(wire.from, wire.to);
  dagre.layout(graph);
  const at = new Map<string, { x: number; y: number }>();
  for (const node of document.nodes) {
    const placed = graph.node(node.id);
    at.set(node.id, { x: placed.x - WIDTH / 2, y: placed.y - HEIGHT / 2 });
  }
  return at;
}

export function RunCanvas({ document, visits, waitingAt }: Props) {
  const { t } = useTranslation();
  const { nodes, edges } = useMemo(() => {
    const at = layout(document);
    const nodes: Node[] = document.nodes.map((node) => {
      const count = visits[node.id] ?? 0;
      const waiting = node.id === waitingAt;
      const classes = ['run-node', count > 0 ? 'visited' : 'unvisited', waiting ? 'waiting' : ''];
      return {
        id: node.id,
        position: at.get(node.id) ?? { x: 0, y: 0 },
        className: classes.join(' '),
        data: {
          label: (
            <span data-node={node.id} data-visits={count}>
              <strong>{node.id}</strong> <small>{node.type}</small>
              {count > 1 && <span className="visits">×{count}</span>}
              {waiting && <span className="waits">{t('ui_run_waits_here')}</span>}
            </span>
          ),
        },
        draggable: false,
        connectable: false,
        style: { width: WIDTH },
      };
    });
    const edges: Edge[] = document.wires.map((wire, index) => {
      const taken = (visits[wire.from] ?? 0) > 0 && (visits[wire.to] ?? 0) > 0;
      return {
        id: `${wire.from}-${wire.port ?? 'out'}-${wire.to}-${index}`,
        source: wire.from,
        target: wire.to,
        label: wire.port,
        animated: taken,
        className: taken ? 'taken' : 'not-taken',
        style: { strokeWidth: taken ? 3 : 1, stroke: taken ? '#1a7f37' : '#9aa4b2' },
      };
    });
    return { nodes, edges };
  }, [document, visits, waitingAt, t]);

  return (
    <div className="run-canvas" aria-label={t('ui_run_canvas')} role="img">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
      </ReactFlow>
    </div>
  );
}
