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
  parallel: ['branches', 'done'],
  join: ['out'],
  approval: ['approve', 'reject'],
  // The static part: a wait_event node's event names come first, from its config (portsOf).
  wait_event: ['timeout'],
  delay: ['out'],
  http: ['out', 'error'],
  notify: ['out', 'error'],
  command: ['out', 'error'],
  log: ['out'],
  end: [],
};
export const NODE_TYPES = Object.keys(PORTS);
export const LOOP_TYPES = new Set(['foreach', 'repeat']);
/** The waypoints whose first port opens a region: a loop's body, a parallel's branches. */
export const REGION_PORTS: Record<string, string> = { foreach: 'body', repeat: 'body', parallel: 'branches' };

/** An event name of a wait_event node (the flow format's rule; `timeout` is the node's own port). */
export const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

export function eventNames(node: Pick<FlowNode, 'type' | 'config'>): string[] {
  if (node.type !== 'wait_event' || !Array.isArray(node.config.events)) return [];
  return node.config.events.filter((e): e is string => typeof e === 'string');
}

/** A node's out ports: its type's, and for a wait_event one per event name before `timeout` (the
 * server's `ports(node)`), so the card, the wires and the gestures follow the config. */
export function portsOf(node: Pick<FlowNode, 'type' | 'config'> | undefined): readonly string[] {
  if (!node) return [];
  const fixed = PORTS[node.type] ?? [];
  if (node.type !== 'wait_event') return fixed;
  return [...new Set([...eventNames(node).filter((e) => !fixed.includes(e)), ...fixed])];
}

/** A new node's config: what its schema requires, so a fresh node is as close to valid as can be. */
const DEFAULT_CONFIG: Record<string, Record<string, unknown>> = {
  trigger: { kind: 'manual' },
  set: { values: {} },
  condition: { left: '', op: 'eq', right: '' },
  foreach: { items: '', as: 'item' },
  repeat: { while: { left: '', op: 'eq', right: '' } },
  approval: { title: '' },
  parallel: { wait: 'all' },
  join: { wait: 'all' },
  wait_event: { events: ['received'], key: '', timeout: 'P1D' },
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
  if (!portsOf(source).includes(port)) {
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
 * with how deep it nests, outermost first. The canvas tints each region. A parallel's branches are a
 * region too (`regions`), and count toward a loop's depth as they do toward the nesting limit. */
export interface LoopRegion {
  loop: string;
  members: string[];
  depth: number;
}

/** Every region (loop bodies and parallels' branches together), with its owner's type. */
export function regions(doc: FlowDocument): (LoopRegion & { type: string })[] {
  const owners = doc.nodes.filter((n) => n.type in REGION_PORTS);
  const bodies = new Map<string, Set<string>>();
  for (const owner of owners) {
    const body = new Set<string>();
    for (const wire of doc.wires) {
      if (wire.from === owner.id && portOf(wire) === REGION_PORTS[owner.type])
        for (const id of reachable(doc, wire.to)) body.add(id);
    }
    bodies.set(owner.id, body);
  }
  return owners
    .map((owner) => {
      const depth = owners.filter((outer) => bodies.get(outer.id)?.has(owner.id)).length;
      return { loop: owner.id, type: owner.type, members: [...(bodies.get(owner.id) ?? [])], depth };
    })
    .sort((a, b) => a.depth - b.depth);
}

export function loopRegions(doc: FlowDocument): LoopRegion[] {
  return regions(doc)
    .filter((r) => LOOP_TYPES.has(r.type))
    .map(({ loop, members, depth }) => ({ loop, members, depth }));
}

/** A parallel's lanes: one per wire of its `branches` port, in document order, each holding every node
 * reachable from that wire's target. A node two lanes reach (the validator's `parallel_branches_meet`)
 * stays in the first, so lanes never share a node on the canvas. */
export interface ParallelRegion {
  parallel: string;
  depth: number;
  lanes: string[][];
}

export function parallelRegions(doc: FlowDocument): ParallelRegion[] {
  return regions(doc)
    .filter((r) => r.type === 'parallel')
    .map((region) => {
      const taken = new Set<string>();
      const lanes = doc.wires
        .filter((w) => w.from === region.loop && portOf(w) === 'branches')
        .map((w) => {
          const lane = [...reachable(doc, w.to)].filter((id) => !taken.has(id));
          for (const id of lane) taken.add(id);
          return lane;
        });
      return { parallel: region.loop, depth: region.depth, lanes };
    });
}

/** The number of wires into `id`: what a join's `all` waits for. */
export function incomingCount(doc: FlowDocument, id: string): number {
  return doc.wires.filter((w) => w.to === id).length;
}

/** A wait_event node with new event names. The wires of a port whose name is gone go with it, in the same
 * edit, so one undo brings both back; the removed wires are returned so the panel can say so. */
export function setEvents(
  doc: FlowDocument,
  id: string,
  events: string[],
): { doc: FlowDocument; cut: Wire[] } {
  const node = doc.nodes.find((n) => n.id === id);
  if (!node) return { doc, cut: [] };
  const next = setConfig(doc, id, { ...node.config, events });
  const kept = new Set(portsOf({ type: node.type, config: { ...node.config, events } }));
  const cut = doc.wires.filter((w) => w.from === id && !kept.has(portOf(w)));
  return { doc: { ...next, wires: next.wires.filter((w) => !cut.includes(w)) }, cut };
}

/** The one-click fix of `branches_meet_without_join`: a join (wait for all) put in front of `id`, every
 * wire into `id` led into the join instead, and the join wired on to `id`. The join takes `id`'s place
 * on the canvas and `id` with everything after it moves down one row. */
export function insertJoin(
  doc: FlowDocument,
  id: string,
  rowHeight = 150,
): { doc: FlowDocument; join: string } {
  const target = doc.nodes.find((n) => n.id === id);
  if (!target) return { doc, join: '' };
  const join = freshId(doc, 'join');
  const at = target.position ?? { x: 0, y: 0 };
  const below = reachable(doc, id);
  const nodes = doc.nodes.map((n) =>
    below.has(n.id) && n.position ? { ...n, position: { x: n.position.x, y: n.position.y + rowHeight } } : n,
  );
  nodes.push({ id: join, type: 'join', config: { wait: 'all' }, position: { ...at } });
  const wires = doc.wires.map((w) => (w.to === id ? { ...w, to: join } : w));
  wires.push({ from: join, to: id });
  return { doc: { ...doc, nodes, wires }, join };
}
