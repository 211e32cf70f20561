import { describe, expect, it } from 'vitest';
import type { FlowDocument } from '../flows/document';
import {
  answersOf,
  endLines,
  parseInput,
  placeOf,
  visitRows,
  visitsByNode,
  walkShape,
  type JournalEntry,
} from './walk';

const line = (code: string, node: string | null, visit: number | null, message = code): JournalEntry => ({
  code,
  node,
  visit,
  data: {},
  message,
});

describe('the sample walk', () => {
  it('outlives moved cards, not other edits', () => {
    const start = { id: 'start', type: 'trigger', config: { kind: 'manual' } };
    const doc: FlowDocument = {
      format: 'flowyard.flow/1',
      name: 'f',
      nodes: [{ ...start, position: { x: 0, y: 0 } }],
      wires: [],
    };
    const moved = { ...doc, nodes: [{ ...start, position: { x: 40, y: 90 } }] };
    const edited = { ...doc, nodes: [{ ...start, label: 'Go', position: { x: 0, y: 0 } }] };
    expect(walkShape(moved)).toBe(walkShape(doc));
    expect(walkShape(edited)).not.toBe(walkShape(doc));
    expect(walkShape({ ...doc, name: 'g' })).not.toBe(walkShape(doc));
  });

  it('reads the sample input, and says where it stops being JSON', () => {
    expect(parseInput('')).toEqual({ input: null });
    expect(parseInput('{"amount": 12}')).toEqual({ input: { amount: 12 } });
    expect(parseInput('{amount: 12}')).toEqual({ at: { line: 1, column: 2 } });
    // The engine may quote the input in its message: words in the input are never taken for the place.
    const quoted = parseInput('["position 99", tru]');
    expect('at' in quoted && quoted.at !== null && quoted.at.column > 20).toBe(false);
  });

  it('counts lines and columns from 1', () => {
    expect(placeOf('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(placeOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
    expect(placeOf('ab\n', 3)).toEqual({ line: 2, column: 1 });
  });

  it('groups the journal by visit, leaving out the visit lines themselves', () => {
    const journal = [
      line('node_visited', 'start', 1),
      line('node_visited', 'note', 2),
      line('log_written', 'note', 2, 'hello'),
      line('node_visited', 'note', 3),
      line('run_succeeded', null, null),
    ];
    expect(visitRows(journal).map((r) => [r.visit, r.node, r.lines.map((l) => l.message)])).toEqual([
      [1, 'start', []],
      [2, 'note', ['hello']],
      [3, 'note', []],
    ]);
    expect(endLines(journal).map((l) => l.code)).toEqual(['run_succeeded']);
  });

  it('numbers each node by its visits', () => {
    expect([...visitsByNode(['start', 'each', 'body', 'each', 'body'])]).toEqual([
      ['start', [1]],
      ['each', [2, 4]],
      ['body', [3, 5]],
    ]);
  });

  it('offers a wait for an event its events, and its timeout only when it has one', () => {
    const wait = (config: Record<string, unknown>) => ({ type: 'wait_event', config });
    expect(answersOf(wait({ events: ['paid', 'refused'], key: 'k', timeout: 'P1D' }))).toEqual([
      'paid',
      'refused',
      'timeout',
    ]);
    expect(answersOf(wait({ events: ['paid', 'paid'], key: 'k' }))).toEqual(['paid']);
    expect(answersOf({ type: 'approval', config: { on_timeout: 'skip' } })).toEqual([
      'approve',
      'reject',
      'timeout',
    ]);
    expect(answersOf({ type: 'approval', config: {} })).toEqual(['approve', 'reject']);
  });
});
