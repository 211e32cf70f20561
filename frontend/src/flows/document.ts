// The flow document (format flowyard.flow/1) and the edits the editor makes to it. Pure functions: the
// store keeps a history of documents, so undo/redo is a matter of which document is current.

export interface Position {
  x: number;
  y: number;
}

export interface FlowNode {
  id: string;
  type: string;
  config: Record<string, unknown>;
  label?: string;
  position?: Position;
}

export interface Wire {
  from: string;
  port?: string;
  to: string;
}

export interface FlowDocument {
  format: 'flowyard.flow/1';
  name: string;
  description?: string;
  nodes: FlowNode[];
  wires: Wire[];
}

/** The node types and their out ports, as backend/graph/model.py PORTS (order is the palette's). */
export const PORTS: Record<string, readonly string[]> = {
  trigger: ['out'],
  set: ['out'],
  condition: ['true', 'false'],
  foreach: ['body', 'done'],
  repeat: ['body', 'done'],
  break: [],
  approval: ['approve', 'reject'],
  delay: ['out'],
  http: ['out', 'error'],
  notify: ['out', 'error'],
  command: ['out', 'error'],
  log: ['out'],
  end: [],
};
export const NODE_TYPES = Object.keys(PORTS);
export const LOOP_TYPES = new Set(['foreach', 'repeat']);

/** A new node's config: what its schema requires, so a fresh node is as close to valid as can be. */
const DEFAULT_CONFIG: Record<string, Record<string, unknown>> = {
  trigger: { kind: 'manual' },
  set: { values: {} },
  condition: { left: '', op: 'eq', right: '' },
  foreach: { items: '', as: 'item' },
  repeat: { while: { left: '', op: 'eq', right: '' } },
  approval: { title: '' },
  delay: { duration: 'PT1H' },
  http: { method: 'POST', url: 'https://' },
  notify: { channel: 'email', to: '', message: '' },
  command: { server: '', template: '', args: {} },
  log: { message: '' },
  end: { status: 'succeeded' },
};

export function emptyDocument(name: string): FlowDocument {
  return {
    format: 'flowyard.flow/1',
    name,
    nodes: [{ id: 'start', type: 'trigger', config: { kind: 'manual' }, position: { x: 0, y: 0 } }],
    wires: [],
  };
}

export function portOf(wire: Wire): string {
  return wire.port ?? 'out';
}

/** Why an edit is refused: a catalog key and its placeholders. */
export interface Refusal {
  code: string;
  params: Record<string, string>;
}

export type Edit = { doc: FlowDocument } | { refused: Refusal };

/** A fresh id for a node of `type`: the type name and the first free number. */
export function freshId(doc: FlowDocument, type: string): string {
  const taken = new Set(doc.nodes.map((n) => n.id));
  for (let n = 1; ; n++) {
    const id = `${type}${n}`;
    if (!taken.has(id)) return id;
  }
}

export function addNode(doc: FlowDocument, type: string, position: Position): Edit {
  const trigger = doc.nodes.find((n) => n.type === 'trigger');
  const id = freshId(doc, type);
  if (type === 'trigger' && trigger) {
    return { refused: { code: 'trigger_multiple', params: { node: id, first: trigger.id } } };
  }
  const config = structuredClone(DEFAULT_CONFIG[type] ?? {});
  return { doc: { ...doc, nodes: [...doc.nodes, { id, type, config, position }] } };
}

/** The nodes reachable from `start` by following wires (`start` included). */
export function reachable(doc: FlowDocument, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const todo = [start];
  while (todo.length) {
    const at = todo.pop() as string;
    for (const wire of doc.wires) {
      if (wire.from === at && !seen.has(wire.to)) {
        seen.add(wire.to);
        todo.push(wire.to);
      }
    }
  }
  return seen;
}

/** A wire from `from`'s `port` to `to`, or the reason it cannot be: the same rules the validator has,
 * checked at the gesture (nothing leads into the trigger, no wire closes a cycle). */
export function connect(doc: FlowDocument, from: string, port: string, to: string): Edit {
  const target = doc.nodes.find((n) => n.id === to);
  const source = doc.nodes.find((n) => n.id === from);
  if (!target || !source)
    return { refused: { code: 'wire_endpoint_unknown', params: { source: from, target: to, endpoint: to } } };
  if (!(PORTS[source.type] ?? []).includes(port)) {
    return {
      refused: { code: 'wire_port_unknown', params: { source: from, target: to, port, type: source.type } },
    };
  }
  if (target.type === 'trigger') {
    return { refused: { code: 'trigger_has_inputs', params: { source: from, target: to } } };
  }
  if (reachable(doc, to).has(from)) {
    return { refused: { code: 'cycle', params: { path: `${from} → ${to} → … → ${from}` } } };
  }
  if (doc.wires.some((w) => w.from === from && portOf(w) === port && w.to === to)) return { doc };
  const wire: Wire = port === 'out' ? { from, to } : { from, port, to };
  return { doc: { ...doc, wires: [...doc.wires, wire] } };
}

export function removeNodes(doc: FlowDocument, ids: Iterable<string>): FlowDocument {
  const gone = new Set(ids);
  return {
    ...doc,
    nodes: doc.nodes.filter((n) => !gone.has(n.id)),
    wires: doc.wires.filter((w) => !gone.has(w.from) && !gone.has(w.to)),
  };
}

export function removeWires(doc: FlowDocument, indexes: Iterable<number>): FlowDocument {
  const gone = new Set(indexes);
  return { ...doc, wires: doc.wires.filter((_, i) => !gone.has(i)) };
}

export function moveNodes(doc: FlowDocument, moved: Map<string, Position>): FlowDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) => (moved.has(n.id) ? { ...n, position: moved.get(n.id) } : n)),
  };
}

export function setConfig(doc: FlowDocument, id: string, config: Record<string, unknown>): FlowDocument {
  return { ...doc, nodes: doc.nodes.map((n) => (n.id === id ? { ...n, config } : n)) };
}

export function setLabel(doc: FlowDocument, id: string, label: string): FlowDocument {
  return {
    ...doc,
    nodes: doc.nodes.map((n) => {
      if (n.id !== id) return n;
      const { label: _old, ...rest } = n;
      return label ? { ...rest, label } : rest;
    }),
  };
}

/** A loop's body region: every node reachable from the targets of its `body` port (FLOW_FORMAT.md),
 * with how deep it nests, outermost first. The canvas tints each region. */
export interface LoopRegion {
  loop: string;
  members: string[];
  depth: number;
}

export function loopRegions(doc: FlowDocument): LoopRegion[] {
  const loops = doc.nodes.filter((n) => LOOP_TYPES.has(n.type));
  const bodies = new Map<string, Set<string>>();
  for (const loop of loops) {
    const body = new Set<string>();
    for (const wire of doc.wires) {
      if (wire.from === loop.id && portOf(wire) === 'body')
        for (const id of reachable(doc, wire.to)) body.add(id);
    }
    bodies.set(loop.id, body);
  }
  return loops
    .map((loop) => {
      const depth = loops.filter((outer) => bodies.get(outer.id)?.has(loop.id)).length;
      return { loop: loop.id, members: [...(bodies.get(loop.id) ?? [])], depth };
    })
    .sort((a, b) => a.depth - b.depth);
}
