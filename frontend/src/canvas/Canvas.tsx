// The canvas: React Flow drawing the document. Every gesture becomes an edit of the document (store.ts);
// a refused one (a second trigger, a back wire) changes nothing and the reason shows at once.
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  type Connection,
  type EdgeChange,
  type Node,
  type NodeChange,
  type OnDelete,
  type ReactFlowInstance,
} from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import {
  addNode,
  connect,
  moveNodes,
  removeNodes,
  removeWires,
  type FlowNode,
  type Position,
} from '../flows/document';
import type { Finding } from '../flows/findings';
import { useEditor } from '../flows/store';
import { FlowNodeCard, type CardData, type CardNode } from './FlowNodeCard';
import { RegionNode, type RegionNodeType } from './RegionNode';
import { regionBoxes } from './regions';
import { cardHandles } from './handles';
import { NODE_HEIGHT, NODE_WIDTH } from './cardSize';
import { lanesNodes, LanesNode } from './LanesNode';
import { DoneEdge } from './DoneEdge';
import { useWires } from './wires';
import { useFlowAria } from './aria';
import { kindColour } from './kinds';
import { MINIMAP_FROM } from './minimap';

const NODE_TYPES = { card: FlowNodeCard, region: RegionNode, lanes: LanesNode };
const EDGE_TYPES = { done: DoneEdge };
const LARGE_FLOW = 150;

const CARD_SIZE = { width: NODE_WIDTH, height: NODE_HEIGHT };
// Cards not drawn at the usual size with their type's fixed ports are measured by React Flow, not declared:
// a wait_event's ports are its event names, a join is a small pill.
const MEASURED_TYPES = new Set(['wait_event', 'join']);
export const DRAG_TYPE = 'application/x-flowyard-node-type';
const isRegion = (id: string) => id.startsWith('region:') || id.startsWith('lanes:');

interface Props {
  findings: Finding[];
  walked: Set<string>;
  /** A sample walk's visit numbers by node, and the approvals it waits at (walk/). */
  order?: Map<string, number[]>;
  paused: Set<string>;
  /** The nodes added or changed since the version compared with (flows/compare.ts). */
  diff?: Map<string, 'added' | 'changed'>;
  readOnly: boolean;
  flow: ReactFlowInstance | null;
  onInit: (flow: ReactFlowInstance) => void;
}

/** A card's colour on the minimap: its kind's; regions and lanes are left out (transparent). */
export function minimapColour(node: Node): string {
  return node.type === 'card' ? kindColour((node.data as CardData).node.type) : 'transparent';
}

export function Canvas({ findings: latest, walked, order, paused, diff, readOnly, flow, onInit }: Props) {
  const { t } = useTranslation();
  // New findings arrive a moment after each edit; redrawing the nodes while a wire is being dragged
  // drops the wire, so the canvas shows the findings it had until the gesture ends.
  const [connecting, setConnecting] = useState(false);
  const shown = useRef(latest);
  if (!connecting) shown.current = latest;
  const findings = shown.current;
  const { doc, selected, apply, replace, checkpoint, select } = useEditor();
  const [selectedWires, setSelectedWires] = useState<Set<string>>(new Set());
  const aria = useFlowAria();

  const cardCache = useRef(new Map<string, CardNode>());
  const cacheLabels = useRef<((node: FlowNode) => string) | null>(null);
  // The cards React Flow measured at another size than the declared one (a label on two lines).
  const sizes = useRef(new Map<string, { measured: { width: number; height: number } }>());
  // The sentence is translated once per node type, not per card: opening 500 nodes called t() 1,000 times.
  const labelOf = useMemo(() => {
    const sentences = new Map<string, string[]>();
    return (node: FlowNode) => {
      let parts = sentences.get(node.type);
      if (!parts) {
        parts = t('ui_canvas_node_label', { type: t(`node_type_${node.type}`), id: '\u0000' }).split(
          '\u0000',
        );
        sentences.set(node.type, parts);
      }
      return parts.join(node.label ?? node.id);
    };
  }, [t]);
  const nodes = useMemo(() => {
    const count = new Map<string, number>();
    for (const f of findings) if (f.node) count.set(f.node, (count.get(f.node) ?? 0) + 1);
    const regions: RegionNodeType[] = regionBoxes(doc).map((box) => ({
      id: `region:${box.loop}`,
      type: 'region',
      position: box.position,
      data: { loop: box.loop, depth: box.depth, width: box.width, height: box.height },
      selectable: false,
      draggable: false,
      focusable: false,
      zIndex: -1 - box.depth,
      handles: [],
      measured: { width: box.width, height: box.height },
    }));
    // A card whose inputs did not change is the same object as before, so React Flow redraws only the
    // cards an edit or a findings update touches (on a 500-node flow, one instead of 500). Another
    // language makes every card anew (its label).
    if (cacheLabels.current !== labelOf) cardCache.current = new Map();
    cacheLabels.current = labelOf;
    const previous = cardCache.current;
    const next = new Map<string, CardNode>();
    const cards: CardNode[] = doc.nodes.map((node) => {
      const data: CardData = {
        node,
        findings: count.get(node.id) ?? 0,
        walked: walked.has(node.id),
        order: order?.get(node.id),
        paused: paused.has(node.id),
        diff: diff?.get(node.id),
      };
      const isSelected = selected.includes(node.id);
      const old = previous.get(node.id);
      const card: CardNode =
        old &&
        old.data.node === data.node &&
        old.data.findings === data.findings &&
        old.data.walked === data.walked &&
        old.data.order === data.order &&
        old.data.paused === data.paused &&
        old.data.diff === data.diff &&
        old.selected === isSelected &&
        old.draggable === !readOnly
          ? old
          : {
              id: node.id,
              type: 'card',
              position: node.position ?? { x: 0, y: 0 },
              data,
              selected: isSelected,
              draggable: !readOnly,
              ariaLabel: labelOf(node),
              // Declared until React Flow has measured the card otherwise (canvas/handles.ts).
              ...(MEASURED_TYPES.has(node.type)
                ? {}
                : (sizes.current.get(node.id) ?? { measured: CARD_SIZE, handles: cardHandles(node.type) })),
            };
      next.set(node.id, card);
      return card;
    });
    cardCache.current = next;
    return [...regions, ...lanesNodes(doc), ...cards] as Node[];
  }, [doc, findings, selected, walked, order, paused, diff, readOnly, labelOf]);

  const edges = useWires(findings, readOnly, selectedWires);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    setSelectedWires((current) => {
      const next = new Set(current);
      for (const change of changes) {
        if (change.type === 'select') {
          if (change.selected) next.add(change.id);
          else next.delete(change.id);
        }
      }
      return next;
    });
  }, []);

  const onNodesChange = useCallback(
    (changes: NodeChange[]) => {
      const moved = new Map<string, Position>();
      let selection: string[] | null = null;
      for (const change of changes) {
        if (change.type === 'dimensions' && change.dimensions && !isRegion(change.id)) {
          sizes.current.set(change.id, { measured: change.dimensions });
        } else if (change.type === 'position' && change.position && !isRegion(change.id)) {
          moved.set(change.id, change.position);
        } else if (change.type === 'select' && !isRegion(change.id)) {
          selection ??= [...useEditor.getState().selected];
          selection = change.selected
            ? [...new Set([...selection, change.id])]
            : selection.filter((id) => id !== change.id);
        }
      }
      if (moved.size && !readOnly) replace(moveNodes(useEditor.getState().doc, moved));
      if (selection) select(selection);
    },
    [replace, select, readOnly],
  );

  const onConnect = useCallback(
    (c: Connection) => apply(connect(useEditor.getState().doc, c.source, c.sourceHandle ?? 'out', c.target)),
    [apply],
  );

  const onDelete: OnDelete = useCallback(
    ({ nodes: gone, edges: cut }) => {
      let next = useEditor.getState().doc;
      next = removeWires(
        next,
        cut.map((e) => Number(e.id.split(':')[1])),
      );
      next = removeNodes(
        next,
        gone.map((n) => n.id).filter((id) => !isRegion(id)),
      );
      apply(next);
      select([]);
      setSelectedWires(new Set());
    },
    [apply, select],
  );

  return (
    <div
      className="canvas"
      onDragOver={(e) => {
        if (e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      }}
      onDrop={(e) => {
        const type = e.dataTransfer.getData(DRAG_TYPE);
        if (!type || !flow || readOnly) return;
        e.preventDefault();
        apply(
          addNode(useEditor.getState().doc, type, flow.screenToFlowPosition({ x: e.clientX, y: e.clientY })),
        );
      }}
    >
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        onInit={onInit}
        onNodesChange={onNodesChange}
        onNodeDragStart={() => checkpoint()}
        onConnect={readOnly ? undefined : onConnect}
        // React Flow pans the canvas while a wire's end is near its edge, from the first move on: a wire
        // started at a port near the edge dragged the canvas (and its target) away under the pointer.
        autoPanOnConnect={false}
        ariaLabelConfig={aria}
        onConnectStart={() => setConnecting(true)}
        onConnectEnd={() => setConnecting(false)}
        onDelete={readOnly ? undefined : onDelete}
        onEdgesChange={onEdgesChange}
        deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
        nodesConnectable={!readOnly}
        fitView
        // A large flow draws only the cards in view: a 500-node flow would otherwise mount 500 of them.
        onlyRenderVisibleElements={doc.nodes.length > LARGE_FLOW}
        minZoom={0.1}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        {/* The toolbar has Fit already. */}
        <Controls showInteractive={false} showFitView={false} />
        {doc.nodes.length >= MINIMAP_FROM && (
          <MiniMap pannable zoomable nodeColor={minimapColour} nodeStrokeWidth={0} />
        )}
      </ReactFlow>
    </div>
  );
}
