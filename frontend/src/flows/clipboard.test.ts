import { describe, expect, it } from 'vitest';
import { copySelection, pasteClip } from './clipboard';
import type { FlowDocument } from './document';

const doc: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 't',
  nodes: [
    { id: 'start', type: 'trigger', config: { kind: 'manual' }, position: { x: 0, y: 0 } },
    { id: 'ask', type: 'approval', config: { title: 'Pay?' }, position: { x: 0, y: 100 } },
    { id: 'log1', type: 'log', config: { message: 'no' }, position: { x: 0, y: 200 } },
  ],
  wires: [
    { from: 'start', to: 'ask' },
    { from: 'ask', port: 'reject', to: 'log1' },
  ],
};

describe('copy and paste', () => {
  it('copies the selected nodes and only the wires between them', () => {
    const clip = copySelection(doc, ['ask', 'log1']);
    expect(clip?.nodes.map((n) => n.id)).toEqual(['ask', 'log1']);
    expect(clip?.wires).toEqual([{ from: 'ask', port: 'reject', to: 'log1' }]);
    expect(copySelection(doc, [])).toBeNull();
  });

  it('pastes under fresh ids, shifted, with the wires between the copies', () => {
    const clip = copySelection(doc, ['ask', 'log1']);
    if (!clip) throw new Error('nothing copied');
    const { edit, ids } = pasteClip(doc, clip);
    if (!('doc' in edit)) throw new Error('refused');
    expect(ids).toEqual(['approval1', 'log2']);
    expect(edit.doc.nodes.find((n) => n.id === 'log2')?.position).toEqual({ x: 40, y: 240 });
    expect(edit.doc.wires.slice(2)).toEqual([{ from: 'approval1', port: 'reject', to: 'log2' }]);
    // The copy is a copy: editing it leaves the original's config alone.
    expect(edit.doc.nodes.find((n) => n.id === 'approval1')?.config).not.toBe(doc.nodes[1]?.config);
  });

  it('refuses a second trigger', () => {
    const clip = copySelection(doc, ['start', 'ask']);
    if (!clip) throw new Error('nothing copied');
    expect(pasteClip(doc, clip).edit).toEqual({
      refused: { code: 'trigger_multiple', params: { node: 'start', first: 'start' } },
    });
  });
});
