import { describe, expect, it } from 'vitest';
import { emptyDocument } from '../flows/document';
import { addAfter, moveInOrder } from './outline';

describe('list view edits', () => {
  it('adds a node after the selected one, wired from the chosen port', () => {
    const first = addAfter(emptyDocument('t'), 'start', 'out', 'approval');
    if (!('doc' in first)) throw new Error('refused');
    expect(first.id).toBe('approval1');
    const second = addAfter(first.doc, 'approval1', 'reject', 'log');
    if (!('doc' in second)) throw new Error('refused');
    expect(second.doc.wires).toEqual([
      { from: 'start', to: 'approval1' },
      { from: 'approval1', port: 'reject', to: 'log1' },
    ]);
  });

  it('refuses adding a second trigger, and moves nodes within the document order', () => {
    expect(addAfter(emptyDocument('t'), 'start', 'out', 'trigger')).toMatchObject({
      refused: { code: 'trigger_multiple' },
    });
    const one = addAfter(emptyDocument('t'), 'start', 'out', 'log');
    if (!('doc' in one)) throw new Error('refused');
    expect(moveInOrder(one.doc, 'log1', -1).nodes.map((n) => n.id)).toEqual(['log1', 'start']);
    expect(moveInOrder(one.doc, 'start', -1)).toBe(one.doc);
  });
});
