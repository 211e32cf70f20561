// The document's wires as React Flow's edges: a port's name as the label (not `out`, not a parallel's
// branches: the lanes say which branch), red for a finding, dashed amber into a warned node, and an
// accessible name in the reader's language (React Flow's own is "Edge from a to b").
import { useMemo, useRef } from 'react';
import type { Edge } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { portOf, type FlowNode } from '../flows/document';
import type { Finding } from '../flows/findings';
import { useEditor } from '../flows/store';
import { doneRoutes } from './DoneEdge';
import { portLabel } from './ports';
import { useWarnings } from './warnings';

export function useWires(findings: Finding[], readOnly: boolean, selectedWires: Set<string>): Edge[] {
  const { t } = useTranslation();
  const doc = useEditor((s) => s.doc);
  const warned = useWarnings((s) => s.byNode);
  // As with the cards, a wire whose drawing did not change is the same object as before: an edit or new
  // findings redraw the wires they touch, not all 500 (React Flow redraws every edge object that is new).
  const edgeCache = useRef(new Map<string, Edge>());
  // Translated once per language, not once per wire: a 500-wire flow would call t() a thousand times on
  // every edit. A port's name is kept per node type and port (an event port is its own name).
  const { wireName, portName } = useMemo(() => {
    const sentence = t('ui_canvas_wire_label', { source: '\u0001', port: '\u0002', target: '\u0003' });
    const ports = new Map<string, string>();
    return {
      wireName: (source: string, port: string, target: string) =>
        sentence.replace('\u0001', source).replace('\u0002', port).replace('\u0003', target),
      portName: (node: FlowNode | undefined, port: string) => {
        const key = `${node?.type ?? ''}\u0000${port}`;
        let name = ports.get(key);
        if (name === undefined) {
          name = portLabel(t, node, port);
          ports.set(key, name);
        }
        return name;
      },
    };
  }, [t]);
  return useMemo<Edge[]>(() => {
    const bad = new Set(findings.filter((f) => f.wire !== null).map((f) => f.wire));
    const byId = new Map(doc.nodes.map((n) => [n.id, n]));
    const routes = doneRoutes(doc);
    const previous = edgeCache.current;
    const next = new Map<string, Edge>();
    const drawn = doc.wires.map((wire, i) => {
      const id = `wire:${i}`;
      const port = portOf(wire);
      const route = port === 'done' ? routes.get(wire.from) : undefined;
      // A branches wire needs no name: the lane it leads into says "Branch 1", "Branch 2".
      const from = byId.get(wire.from);
      const label = port === 'out' || port === 'branches' ? undefined : portName(from, port);
      const className = bad.has(i) ? 'wire-finding' : warned[wire.to] ? 'wire-warning' : undefined;
      const selected = selectedWires.has(id);
      const ariaLabel = wireName(
        from?.label ?? wire.from,
        portName(from, port),
        byId.get(wire.to)?.label ?? wire.to,
      );
      const old = previous.get(id);
      const edge: Edge =
        old &&
        !route &&
        !old.data &&
        old.source === wire.from &&
        old.target === wire.to &&
        old.sourceHandle === port &&
        old.label === label &&
        old.ariaLabel === ariaLabel &&
        old.className === className &&
        old.deletable === !readOnly &&
        old.selected === selected
          ? old
          : {
              ...(route ? { type: 'done', data: route } : {}),
              id,
              source: wire.from,
              sourceHandle: port,
              target: wire.to,
              targetHandle: 'in',
              label,
              ariaLabel,
              className,
              deletable: !readOnly,
              selected,
            };
      next.set(id, edge);
      return edge;
    });
    edgeCache.current = next;
    return drawn;
  }, [doc, findings, readOnly, selectedWires, warned, wireName, portName]);
}
