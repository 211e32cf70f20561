import { describe, expect, it } from 'vitest';
import { moveNodes, setConfig, setLabel, type FlowDocument } from './document';
import { sameMeaning } from './findings';

const doc: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 'f',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' } },
    { id: 'note', type: 'log', config: { message: 'hi' }, position: { x: 0, y: 0 } },
  ],
  wires: [{ from: 'start', to: 'note' }],
};

describe('what the findings are asked for again', () => {
  it('not for a document whose nodes only moved', () => {
    const moved = moveNodes(doc, new Map([['note', { x: 40, y: 90 }]]));
    expect(moved).not.toBe(doc);
    expect(sameMeaning(doc, moved)).toBe(true);
  });

  it('for any other change: a setting, a label, a wire, the name', () => {
    expect(sameMeaning(doc, setConfig(doc, 'note', { message: 'ho' }))).toBe(false);
    expect(sameMeaning(doc, setLabel(doc, 'note', 'Say hi'))).toBe(false);
    expect(sameMeaning(doc, { ...doc, wires: [] })).toBe(false);
    expect(sameMeaning(doc, { ...doc, name: 'g' })).toBe(false);
  });
});
