import { describe, expect, it } from 'vitest';
import { findNodes } from './find';
import type { FlowDocument } from './document';

const doc: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 't',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' } },
    {
      id: 'ask',
      type: 'approval',
      config: { title: 'Pay {{trigger.invoice}}?', approvers: ['group:finance'] },
    },
    { id: 'note', type: 'log', label: 'Rejection note', config: { message: 'not paid' } },
  ],
  wires: [],
};
const names: Record<string, string> = { trigger: 'Auslöser', approval: 'Genehmigung', log: 'Protokoll' };

describe('find a node', () => {
  it('matches ids, labels, type names in the author language and nested config values', () => {
    const ids = (q: string) => findNodes(doc, q, (type) => names[type] ?? type).map((n) => n.id);
    expect(ids('FINANCE')).toEqual(['ask']);
    expect(ids('genehm')).toEqual(['ask']);
    expect(ids('note')).toEqual(['note']);
    expect(ids('paid')).toEqual(['note']);
    expect(ids('   ')).toEqual([]);
  });
});
