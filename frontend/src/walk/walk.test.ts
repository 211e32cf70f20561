import { describe, expect, it } from 'vitest';
import { endLines, parseInput, visitRows, visitsByNode, type JournalEntry } from './walk';

const line = (code: string, node: string | null, visit: number | null, message = code): JournalEntry => ({
  code,
  node,
  visit,
  data: {},
  message,
});

describe('the sample walk', () => {
  it('reads the sample input, and says why when it is not JSON', () => {
    expect(parseInput('')).toEqual({ input: null });
    expect(parseInput('{"amount": 12}')).toEqual({ input: { amount: 12 } });
    expect(parseInput('{amount: 12}')).toHaveProperty('reason');
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
});
