// What a template at a node may read: the trigger's fields (from the sample input), the names `set`
// nodes before it assign, the loop variables of the loops around it, and the outputs of the approvals
// and actions before it (FLOW_FORMAT.md: a node's output is stored under its id). Computed from the
// wires alone: "before" means a node from which this one can be reached.
import { loopRegions, reachable, regions as allRegions, type FlowDocument } from '../flows/document';

export type ScopeKind = 'trigger' | 'set' | 'loop' | 'output';
export interface ScopeEntry {
  path: string;
  kind: ScopeKind;
  /** The node that provides it. */
  from: string;
}

/** The fields each node type's output has (backend/approvals/queue_port.py, backend/actions/). */
const OUTPUT_FIELDS: Record<string, readonly string[]> = {
  approval: ['outcome', 'decided_by', 'decided_at', 'comment'],
  http: ['status', 'headers', 'body', 'url'],
  notify: ['channel', 'status', 'body'],
  command: ['server', 'status', 'body'],
  // An event's payload, whatever fields its sender put in it.
  wait_event: [],
};
const SAMPLE_DEPTH = 3;
const SAMPLE_PATHS = 100;
const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;
// Names the server checks itself (secrets in action nodes, the original output in an undo).
const CHECKED_BY_SERVER = new Set(['secrets', 'result']);

/** The dotted paths of a sample value's object fields, breadth first, at most SAMPLE_PATHS of them. */
export function samplePaths(value: unknown, prefix: string): string[] {
  const paths: string[] = [];
  const todo: [string, unknown, number][] = [[prefix, value, 0]];
  while (todo.length && paths.length < SAMPLE_PATHS) {
    const [path, at, depth] = todo.shift() as [string, unknown, number];
    if (depth >= SAMPLE_DEPTH || at === null || typeof at !== 'object' || Array.isArray(at)) continue;
    for (const [key, inner] of Object.entries(at)) {
      paths.push(`${path}.${key}`);
      todo.push([`${path}.${key}`, inner, depth + 1]);
    }
  }
  return paths.slice(0, SAMPLE_PATHS);
}

/** Everything a template in `nodeId`'s config may read, without duplicates, in the order above. */
export function scopeAt(doc: FlowDocument, nodeId: string, sample: unknown): ScopeEntry[] {
  const regions = loopRegions(doc);
  const before = new Set(
    doc.nodes.filter((n) => n.id !== nodeId && reachable(doc, n.id).has(nodeId)).map((n) => n.id),
  );
  // What a loop's body (or a parallel's branches) set is still there after it: its body counts as
  // "before" what follows it.
  for (const region of allRegions(doc))
    if (before.has(region.loop)) for (const id of region.members) before.add(id);
  before.delete(nodeId);
  const entries: ScopeEntry[] = [];
  const trigger = doc.nodes.find((n) => n.type === 'trigger');
  if (trigger) {
    entries.push({ path: 'trigger', kind: 'trigger', from: trigger.id });
    for (const path of samplePaths(sample, 'trigger'))
      entries.push({ path, kind: 'trigger', from: trigger.id });
  }
  for (const region of regions) {
    const loop = doc.nodes.find((n) => n.id === region.loop);
    const name = loop?.type === 'foreach' ? loop.config.as : undefined;
    if (typeof name === 'string' && name && region.members.includes(nodeId))
      entries.push({ path: name, kind: 'loop', from: region.loop });
  }
  for (const node of doc.nodes) {
    if (!before.has(node.id)) continue;
    if (node.type === 'set' && node.config.values && typeof node.config.values === 'object')
      for (const name of Object.keys(node.config.values))
        entries.push({ path: name, kind: 'set', from: node.id });
    const fields = OUTPUT_FIELDS[node.type];
    if (fields) {
      entries.push({ path: node.id, kind: 'output', from: node.id });
      for (const field of fields)
        entries.push({ path: `${node.id}.${field}`, kind: 'output', from: node.id });
    }
  }
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.path) && seen.add(e.path));
}

/** The first names of the templates in `text` that nothing in scope provides, each once. */
export function unknownNames(text: string, scope: ScopeEntry[]): string[] {
  const roots = new Set(scope.map((e) => e.path.split('.')[0]));
  const unknown: string[] = [];
  for (const match of text.matchAll(TEMPLATE)) {
    const root = (match[1] ?? '').split('.')[0] ?? '';
    if (root && !roots.has(root) && !CHECKED_BY_SERVER.has(root) && !unknown.includes(root))
      unknown.push(root);
  }
  return unknown;
}

/** The template being typed at `caret`: where its path starts and what is typed so far; null outside one. */
export function openTemplate(text: string, caret: number): { start: number; typed: string } | null {
  const opened = text.lastIndexOf('{{', caret);
  if (opened < 0) return null;
  const between = text.slice(opened + 2, caret);
  // Only a path is typed between the braces so far: letters, digits, `_`, `-` and dots.
  const typed = /^\s*([\w.-]*)$/.exec(between);
  if (!typed) return null;
  return { start: caret - (typed[1] ?? '').length, typed: typed[1] ?? '' };
}

/** The scope entries that continue what is typed (case-insensitive), at most `limit`. */
export function suggestions(scope: ScopeEntry[], typed: string, limit = 12): ScopeEntry[] {
  const lower = typed.toLowerCase();
  return scope.filter((e) => e.path.toLowerCase().startsWith(lower)).slice(0, limit);
}

/** The text with the template at `start` (its typed part, up to `caret`) completed to `path}}`, and the
 * caret after it. An already closed template keeps its closing braces. */
export function insert(
  text: string,
  start: number,
  caret: number,
  path: string,
): { text: string; caret: number } {
  const rest = text.slice(caret);
  const closing = rest.trimStart().startsWith('}}') ? '' : '}}';
  const next = `${text.slice(0, start)}${path}${closing}${rest}`;
  return { text: next, caret: start + path.length + closing.length };
}
