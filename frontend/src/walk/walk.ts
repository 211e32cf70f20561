// "Walk with sample input": the server's pure walker (POST /api/flows/walk) run on the open document.
// Nothing is saved, started or sent; the answers to approvals and to waits for an event are chosen by the
// author as the walk pauses.
import { walkFlow, type WalkBody, type WalkResult } from '../api/flows';
import { eventNames, type FlowDocument, type FlowNode } from '../flows/document';

export type { WalkResult };
export type JournalEntry = WalkResult['journal'][number];
/** An approval's `approve`, `reject` or `timeout`; a wait_event's event name or `timeout`. */
export type Outcome = string;
/** An approval or wait_event the walk waits at: its node and visit (several at once in a parallel). */
export type Pause = WalkResult['pending'][number];
/** The answer the author chose for a pause at a node, sent with the next walk. */
export type Answer = NonNullable<WalkBody['answers']>[number];

/**
 * The answers a pause at `node` may take, as the server's walk takes them (backend/walker/answers.py): an
 * approval's approve and reject, and timeout with an on_timeout rule; a wait_event's event names, and
 * timeout when it has one (without, it waits for ever).
 */
export function answersOf(node: Pick<FlowNode, 'type' | 'config'> | undefined): Outcome[] {
  if (node?.type === 'wait_event')
    return [...new Set(eventNames(node)), ...(node.config.timeout ? ['timeout'] : [])];
  return node?.config.on_timeout ? ['approve', 'reject', 'timeout'] : ['approve', 'reject'];
}

/** One visit of the walk: its number, the node, and what the walker wrote about it besides the visit. */
export interface VisitRow {
  visit: number;
  node: string;
  lines: JournalEntry[];
}

/**
 * What a walk of `doc` depends on: everything but where the cards stand. Moving cards (by hand, by Arrange,
 * or the layout an unplaced flow gets once it has opened) keeps the walk on screen; any other edit clears it.
 */
export function walkShape(doc: FlowDocument): string {
  return JSON.stringify({ ...doc, nodes: doc.nodes.map(({ position: _, ...node }) => node) });
}

/** Where in the sample input the parser stopped: line and column, each counted from 1. */
export interface TextPlace {
  line: number;
  column: number;
}

/**
 * The sample input as JSON; an empty text is no input (null). Text that is not JSON gives where the parser
 * stopped (`at`), when the browser's message names it: the message itself is the engine's own, in English
 * whatever the reader reads, so only the place is taken from it (V8 and SpiderMonkey say "line L column
 * C", older V8 "position N"), and the sentence is the catalog's.
 */
export function parseInput(text: string): { input: unknown } | { at: TextPlace | null } {
  if (!text.trim()) return { input: null };
  try {
    return { input: JSON.parse(text) as unknown };
  } catch (failure) {
    const said = failure instanceof Error ? failure.message : '';
    // Anchored at the end: the engine's message may quote the input, and the input may say "position 9".
    const spider = /at line (\d+) column (\d+) of the JSON data$/.exec(said);
    if (spider) return { at: { line: Number(spider[1]), column: Number(spider[2]) } };
    const v8 = /in JSON at position (\d+)(?: \(line (\d+) column (\d+)\))?$/.exec(said);
    if (!v8) return { at: null };
    return { at: v8[2] ? { line: Number(v8[2]), column: Number(v8[3]) } : placeOf(text, Number(v8[1])) };
  }
}

/** The line and column (from 1) of the character at `offset` in `text`. */
export function placeOf(text: string, offset: number): TextPlace {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before[before.length - 1] ?? '').length + 1 };
}

/** The journal grouped by visit, in visit order: one row per `node_visited` line. */
export function visitRows(journal: JournalEntry[]): VisitRow[] {
  const rows: VisitRow[] = [];
  const byVisit = new Map<number, VisitRow>();
  for (const line of journal) {
    if (line.visit === null || line.node === null) continue;
    let row = byVisit.get(line.visit);
    if (!row) {
      row = { visit: line.visit, node: line.node, lines: [] };
      byVisit.set(line.visit, row);
      rows.push(row);
    }
    if (line.code !== 'node_visited') row.lines.push(line);
  }
  return rows.sort((a, b) => a.visit - b.visit);
}

/** The visit numbers of each node, for the badges on the canvas. */
export function visitsByNode(visits: string[]): Map<string, number[]> {
  const map = new Map<string, number[]>();
  visits.forEach((node, i) => map.set(node, [...(map.get(node) ?? []), i + 1]));
  return map;
}

/** The lines of the walk's end (no visit): the run succeeded or failed. */
export function endLines(journal: JournalEntry[]): JournalEntry[] {
  return journal.filter((line) => line.visit === null);
}

/** Walk `doc`; `flowId` names the saved flow it is a draft of, so that `run` or `edit` on that flow is
 * enough (without it the server asks for `edit` everywhere). */
export async function walkSample(
  doc: FlowDocument,
  flowId: number | null,
  input: unknown,
  answers: Answer[],
  language: string,
): Promise<WalkResult> {
  const flow = flowId === null ? {} : { flow: flowId };
  return walkFlow(doc, { ...flow, input, answers }, language);
}
