import { describe, expect, it } from 'vitest';
import type { FlowDocument } from './document';
import { quickLayout } from './quickLayout';

const doc: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 'f',
  nodes: [
    { id: 'paid', type: 'log', config: {} },
    { id: 'no', type: 'log', config: {} },
    { id: 'ask', type: 'approval', config: {} },
    { id: 'end', type: 'end', config: {} },
    { id: 'start', type: 'trigger', config: {} },
  ],
  wires: [
    { from: 'ask', port: 'reject', to: 'no' },
    { from: 'start', to: 'ask' },
    { from: 'ask', port: 'approve', to: 'paid' },
    { from: 'paid', to: 'end' },
    { from: 'no', to: 'end' },
  ],
};

describe('quickLayout', () => {
  it('puts a row per longest path, ports left to right, every node placed once', () => {
    const at = quickLayout(doc);
    expect([...at.keys()].sort()).toEqual(['ask', 'end', 'no', 'paid', 'start']);
    const y = (id: string) => at.get(id)?.y ?? NaN;
    const x = (id: string) => at.get(id)?.x ?? NaN;
    expect(y('start')).toBeLessThan(y('ask'));
    expect(y('paid')).toBe(y('no'));
    expect(y('ask')).toBeLessThan(y('paid'));
    expect(y('end')).toBeGreaterThan(y('no'));
    expect(x('paid')).toBeLessThan(x('no'));
    expect(x('start')).toBe(x('ask'));
  });

  it('places nodes on a cycle and nodes without wires too, without overlapping', () => {
    const odd: FlowDocument = {
      ...doc,
      nodes: [...doc.nodes, { id: 'a', type: 'log', config: {} }, { id: 'b', type: 'log', config: {} }],
      wires: [...doc.wires, { from: 'a', to: 'b' }, { from: 'b', to: 'a' }],
    };
    const at = quickLayout(odd);
    expect(at.size).toBe(7);
    const spots = new Set([...at.values()].map((p) => `${p.x},${p.y}`));
    expect(spots.size).toBe(7);
  });

  it('lays out a 500-node chain in one column', () => {
    const ids = Array.from({ length: 500 }, (_, i) => `n${i}`);
    const chain: FlowDocument = {
      ...doc,
      nodes: ids.map((id) => ({ id, type: 'log', config: {} })),
      wires: ids.slice(1).map((id, i) => ({ from: `n${i}`, to: id })),
    };
    const at = quickLayout(chain);
    expect(new Set([...at.values()].map((p) => p.x)).size).toBe(1);
    expect(at.get('n499')?.y).toBeGreaterThan(at.get('n498')?.y ?? Infinity);
  });
});
