// The flow as the run saw it, drawn as the editor draws it: the pinned version's nodes where its author
// put them (or laid out top to bottom as the editor would: runLayout.ts), with the editor's card faces
// and loop and parallel regions, read-only. Visited nodes and the wires between them are the path taken;
// the waiting node is marked. React Flow's nodes and edges are derived from the document, never edited.
import { useMemo } from 'react';
import { Background, Controls, MiniMap, ReactFlow, type Edge, type Node } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { PinnedDocument } from '../api/runs';
import { portLabel } from '../canvas/ports';
import { runPlaces } from './runLayout';
import { RunCard, type RunCardNode } from './RunCard';
import { RegionNode, type RegionNodeType } from '../canvas/RegionNode';
import { regionBoxes } from '../canvas/regions';
import { LanesNode, lanesNodes } from '../canvas/LanesNode';
import { useFlowAria } from '../canvas/aria';
import { kindColour } from '../canvas/kinds';
import { MINIMAP_FROM } from '../canvas/minimap';

const NODE_TYPES = { run: RunCard, region: RegionNode, lanes: LanesNode };

interface Props {
  document: PinnedDocument;
  visits: Record<string, number>;
  waitingAt: readonly string[]; // with a parallel open, every branch's pause
}

export function RunCanvas({ document, visits, waitingAt }: Props) {
  const { t } = useTranslation();
  const aria = useFlowAria();
  const { nodes, edges } = useMemo(() => {
    const doc = runPlaces(document);
    const regions: RegionNodeType[] = regionBoxes(doc).map((box) => ({
      id: `region:${box.loop}`,
      type: 'region',
      position: box.position,
      data: { loop: box.loop, depth: box.depth, width: box.width, height: box.height },
      selectable: false,
      draggable: false,
      focusable: false,
      zIndex: -1 - box.depth,
    }));
    const cards: RunCardNode[] = doc.nodes.map((node) => {
      const count = visits[node.id] ?? 0;
      const waiting = waitingAt.includes(node.id);
      return {
        id: node.id,
        type: 'run',
        position: node.position ?? { x: 0, y: 0 },
        className: ['run-node', count > 0 ? 'visited' : 'unvisited', waiting ? 'waiting' : ''].join(' '),
        data: { node, visits: count, waiting },
        ariaLabel: node.label ?? node.id,
        draggable: false,
        connectable: false,
      };
    });
    const byId = new Map(doc.nodes.map((node) => [node.id, node]));
    const edges: Edge[] = doc.wires.map((wire, index) => {
      const taken = (visits[wire.from] ?? 0) > 0 && (visits[wire.to] ?? 0) > 0;
      const port = wire.port ?? 'out';
      return {
        id: `${wire.from}-${port}-${wire.to}-${index}`,
        source: wire.from,
        sourceHandle: port,
        target: wire.to,
        targetHandle: 'in',
        // The port in the reader's words (an event's port is the author's event name, as on the editor).
        label: port !== 'out' && port !== 'branches' ? portLabel(t, byId.get(wire.from), port) : undefined,
        animated: taken,
        className: taken ? 'taken' : 'not-taken',
        style: { strokeWidth: taken ? 3 : 1.5, stroke: taken ? '#1a7f37' : '#9aa4b2' },
      };
    });
    return { nodes: [...regions, ...lanesNodes(doc), ...cards] as Node[], edges };
  }, [document, visits, waitingAt, t]);

  return (
    <div className="run-canvas" aria-label={t('ui_run_canvas')} role="figure">
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        fitView
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        minZoom={0.1}
        ariaLabelConfig={aria}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls showInteractive={false} />
        {document.nodes.length >= MINIMAP_FROM && (
          <MiniMap
            pannable
            zoomable
            nodeColor={(n) =>
              n.type === 'run' ? kindColour((n as RunCardNode).data.node.type) : 'transparent'
            }
            nodeStrokeWidth={0}
          />
        )}
      </ReactFlow>
    </div>
  );
}
