// The flow as the run saw it: the pinned version's nodes laid out by dagre, read-only. Visited nodes and
// the wires between them are the path taken; a loop body shows its visit count; the waiting node is
// marked. React Flow's nodes and edges are derived from the document, never edited here. On a phone the
// flow runs top to bottom, so that a long path keeps a readable size in the narrow column.
import { useMemo } from 'react';
import dagre from '@dagrejs/dagre';
import { Background, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from './types';
import { portLabel } from '../canvas/ports';
import { usePhone } from '../shell/phone';

const WIDTH = 170;
const HEIGHT = 56;

interface Props {
  document: FlowDocument;
  visits: Record<string, number>;
  waitingAt: readonly string[]; // with a parallel open, every branch's pause
}

export function layout(
  document: FlowDocument,
  direction: 'LR' | 'TB' = 'LR',
): Map<string, { x: number; y: number }> {
  const graph = new dagre.graphlib.Graph();
  graph.setGraph({ rankdir: direction, nodesep: 30, ranksep: direction === 'LR' ? 60 : 40 });
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
  const phone = usePhone();
  const { nodes, edges } = useMemo(() => {
    const at = layout(document, phone ? 'TB' : 'LR');
    const nodes: Node[] = document.nodes.map((node) => {
      const count = visits[node.id] ?? 0;
      const waiting = waitingAt.includes(node.id);
      const classes = ['run-node', count > 0 ? 'visited' : 'unvisited', waiting ? 'waiting' : ''];
      return {
        id: node.id,
        position: at.get(node.id) ?? { x: 0, y: 0 },
        className: classes.join(' '),
        data: {
          label: (
            <span data-node={node.id} data-visits={count}>
              <strong>{node.id}</strong> <small>{t(`node_type_${node.type}`)}</small>
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
    const byId = new Map(document.nodes.map((node) => [node.id, node]));
    const edges: Edge[] = document.wires.map((wire, index) => {
      const taken = (visits[wire.from] ?? 0) > 0 && (visits[wire.to] ?? 0) > 0;
      return {
        id: `${wire.from}-${wire.port ?? 'out'}-${wire.to}-${index}`,
        source: wire.from,
        target: wire.to,
        // The port in the reader's words (an event's port is the author's event name, as on the editor).
        label: wire.port && wire.port !== 'out' ? portLabel(t, byId.get(wire.from), wire.port) : undefined,
        animated: taken,
        className: taken ? 'taken' : 'not-taken',
        style: { strokeWidth: taken ? 3 : 1, stroke: taken ? '#1a7f37' : '#9aa4b2' },
      };
    });
    return { nodes, edges };
  }, [document, visits, waitingAt, t, phone]);

  return (
    <div className="run-canvas" aria-label={t('ui_run_canvas')} role="img">
      <ReactFlow
        key={phone ? 'TB' : 'LR'} // laid out anew, and fitted to the view anew, when the direction turns
        nodes={nodes}
        edges={edges}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
      </ReactFlow>
    </div>
  );
}
