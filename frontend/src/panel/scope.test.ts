import { describe, expect, it } from 'vitest';
import type { FlowDocument } from '../flows/document';
import { insert, openTemplate, samplePaths, scopeAt, suggestions, unknownNames } from './scope';

const doc: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 't',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' } },
    { id: 'mark', type: 'set', config: { values: { total: '0' } } },
    { id: 'each', type: 'foreach', config: { items: '{{trigger.invoices}}', as: 'invoice' } },
    { id: 'ask', type: 'approval', config: { title: 'Pay {{invoice.id}}?' } },
    { id: 'note', type: 'log', config: { message: '' } },
    { id: 'after', type: 'log', config: { message: '' } },
    { id: 'aside', type: 'http', config: { method: 'GET', url: 'https://x' } },
  ],
  wires: [
    { from: 'start', to: 'mark' },
    { from: 'mark', to: 'each' },
    { from: 'each', port: 'body', to: 'ask' },
    { from: 'ask', port: 'approve', to: 'note' },
    { from: 'each', port: 'done', to: 'after' },
    { from: 'start', to: 'aside' },
  ],
};
const paths = (id: string, sample: unknown = null) => scopeAt(doc, id, sample).map((e) => e.path);

describe('template scope', () => {
  it('offers the trigger, set names, the loop variable inside the body and outputs before the node', () => {
    expect(paths('note')).toEqual([
      'trigger',
      'invoice',
      'total',
      'ask',
      'ask.outcome',
      'ask.decided_by',
      'ask.decided_at',
      'ask.comment',
    ]);
  });

  it('leaves out the loop variable after the loop, and what another branch does', () => {
    expect(paths('after')).toEqual(expect.arrayContaining(['trigger', 'total', 'ask.outcome']));
    expect(paths('after')).not.toContain('invoice');
    expect(paths('ask')).not.toContain('aside');
    expect(paths('note')).not.toContain('aside.status');
  });

  it('reads the trigger fields from the sample input', () => {
    expect(samplePaths({ invoices: [{ id: 1 }], customer: { name: 'A' } }, 'trigger')).toEqual([
      'trigger.invoices',
      'trigger.customer',
      'trigger.customer.name',
    ]);
    expect(paths('mark', { amount: 3 })).toEqual(['trigger', 'trigger.amount']);
  });

  it('names the unknown first names of a text, but not secrets', () => {
    const scope = scopeAt(doc, 'note', null);
    expect(unknownNames('{{invoice.id}} {{totl}} {{ totl }} {{secrets.KEY}} {{ask.comment}}', scope)).toEqual(
      ['totl'],
    );
  });

  it('completes the template being typed', () => {
    expect(openTemplate('Pay {{inv', 9)).toEqual({ start: 6, typed: 'inv' });
    expect(openTemplate('Pay {{invoice}} now', 19)).toBeNull();
    expect(openTemplate('no template', 5)).toBeNull();
    const scope = scopeAt(doc, 'note', null);
    expect(suggestions(scope, 'ask.d').map((e) => e.path)).toEqual(['ask.decided_by', 'ask.decided_at']);
    expect(insert('Pay {{inv', 6, 9, 'invoice')).toEqual({ text: 'Pay {{invoice}}', caret: 15 });
    expect(insert('Pay {{inv}} now', 6, 9, 'invoice')).toEqual({ text: 'Pay {{invoice}} now', caret: 13 });
  });
});
