import { describe, expect, it } from 'vitest';
import { layout } from './layout';
import type { FlowDocument } from '../flows/document';

describe('auto-layout', () => {
  it('places every node, each wire going downwards, siblings side by side in port order', () => {
    const doc: FlowDocument = {
      format: 'flowyard.flow/1',
      name: 't',
      nodes: [
        { id: 'start', type: 'trigger', config: {} },
        { id: 'note', type: 'log', config: {} },
        { id: 'ask', type: 'approval', config: {} },
        { id: 'pay', type: 'log', config: {} },
      ],
      wires: [
        { from: 'start', to: 'ask' },
        { from: 'ask', port: 'reject', to: 'note' },
        { from: 'ask', port: 'approve', to: 'pay' },
      ],
    };
    const placed = layout(doc);
    const swapped = layout({ ...doc, wires: [...doc.wires].reverse() });
    expect(swapped.get('pay')?.x ?? NaN).toBeLessThan(swapped.get('note')?.x ?? NaN);
    const y = (id: string) => placed.get(id)?.y ?? NaN;
    expect(placed.size).toBe(4);
    expect(y('start')).toBeLessThan(y('ask'));
    expect(y('ask')).toBeLessThan(y('pay'));
    expect(y('pay')).toBe(y('note'));
    expect(placed.get('pay')?.x ?? NaN).toBeLessThan(placed.get('note')?.x ?? NaN); // approve left of reject
  });
});
