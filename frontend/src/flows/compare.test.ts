import { describe, expect, it } from 'vitest';
import { diffDocuments, diffMarks } from './compare';
import type { FlowDocument } from './document';

const before: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 't',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' } },
    { id: 'ask', type: 'approval', config: { title: 'Pay?', deadline: 'P2D' } },
    { id: 'gone', type: 'log', config: { message: 'bye' } },
  ],
  wires: [
    { from: 'start', to: 'ask' },
    { from: 'ask', port: 'reject', to: 'gone' },
  ],
};

describe('version diff', () => {
  it('names added, removed and changed nodes, the changed settings, and the wires', () => {
    const after: FlowDocument = {
      ...before,
      nodes: [
        { id: 'start', type: 'trigger', config: { kind: 'manual' }, position: { x: 5, y: 5 } },
        { id: 'ask', type: 'approval', label: 'Pay', config: { title: 'Pay now?' } },
        { id: 'new', type: 'log', config: { message: 'hi' } },
      ],
      wires: [
        { from: 'start', to: 'ask' },
        { from: 'ask', port: 'approve', to: 'new' },
      ],
    };
    const diff = diffDocuments(before, after);
    expect(diff.added).toEqual(['new']);
    expect(diff.removed).toEqual(['gone']);
    expect(diff.changed).toEqual([{ id: 'ask', fields: ['deadline', 'title', 'label'] }]);
    expect(diff.wiresAdded).toEqual([{ from: 'ask', port: 'approve', to: 'new' }]);
    expect(diff.wiresRemoved).toEqual([{ from: 'ask', port: 'reject', to: 'gone' }]);
    expect([...diffMarks(diff)]).toEqual([
      ['new', 'added'],
      ['ask', 'changed'],
    ]);
  });

  it('finds nothing between a document and itself, moved or not', () => {
    const moved = { ...before, nodes: before.nodes.map((n) => ({ ...n, position: { x: 1, y: 2 } })) };
    const diff = diffDocuments(before, moved);
    expect([diff.added, diff.removed, diff.changed, diff.wiresAdded, diff.wiresRemoved]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });
});
