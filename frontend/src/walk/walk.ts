// "Walk with sample input": the server's pure walker (POST /api/flows/walk) run on the open document.
// Nothing is saved, started or sent; the answers to approvals are chosen by the author as the walk pauses.
import { api, unwrap } from '../api/client';
import type { paths } from '../api/schema';
import type { FlowDocument } from '../flows/document';

export type WalkResult = paths['/api/flows/walk']['post']['responses'][200]['content']['application/json'];
export type JournalEntry = WalkResult['journal'][number];
export type Outcome = 'approve' | 'reject' | 'timeout';
/** An approval the walk waits at: its node and visit (several at once in a parallel's branches). */
export type Pause = WalkResult['pending'][number];
export interface Answer {
  node: string;
  outcome: Outcome;
}

/** One visit of the walk: its number, the node, and what the walker wrote about it besides the visit. */
export interface VisitRow {
  visit: number;
  node: string;
  lines: JournalEntry[];
}

/** The sample input as JSON, or the parser's reason; an empty text is no input (null). */
/**
 * What a walk of `doc` depends on: everything but where the cards stand. Moving cards (by hand, by Arrange,
 * or the layout an unplaced flow gets once it has opened) keeps the walk on screen; any other edit clears it.
 */
export function walkShape(doc: FlowDocument): string {
  return JSON.stringify({ ...doc, nodes: doc.nodes.map(({ position: _, ...node }) => node) });
}

export function parseInput(text: string): { input: unknown } | { reason: string } {
  if (!text.trim()) return { input: null };
  try {
    return { input: JSON.parse(text) as unknown };
  } catch (failure) {
    return { reason: failure instanceof Error ? failure.message : String(failure) };
  }
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

export async function walkSample(
  doc: FlowDocument,
  input: unknown,
  answers: Answer[],
  language: string,
): Promise<WalkResult> {
  return unwrap(
    await api.POST('/api/flows/walk', {
      body: { document: doc as unknown as Record<string, never>, input, answers },
      headers: { 'Accept-Language': language.replace('_', '-') },
    }),
  );
}
