import { describe, expect, it } from 'vitest';
import {
  addNode,
  connect,
  emptyDocument,
  loopRegions,
  removeNodes,
  type Edit,
  type FlowDocument,
} from './document';

function done(edit: Edit): FlowDocument {
  if ('refused' in edit) throw new Error(edit.refused.code);
  return edit.doc;
}

describe('graph edits', () => {
  it('adds nodes with fresh ids and the config their schema requires', () => {
    let doc = emptyDocument('t');
    doc = done(addNode(doc, 'log', { x: 0, y: 0 }));
    doc = done(addNode(doc, 'log', { x: 0, y: 0 }));
    expect(doc.nodes.map((n) => n.id)).toEqual(['start', 'log1', 'log2']);
    expect(doc.nodes[1]?.config).toEqual({ message: '' });
  });

  it('refuses a second trigger with the catalog code naming both', () => {
    const edit = addNode(emptyDocument('t'), 'trigger', { x: 0, y: 0 });
    expect(edit).toEqual({
      refused: { code: 'trigger_multiple', params: { node: 'trigger1', first: 'start' } },
    });
  });

  it('wires named ports, omitting the default port, and never twice', () => {
    let doc = done(addNode(emptyDocument('t'), 'approval', { x: 0, y: 0 }));
    doc = done(addNode(doc, 'log', { x: 0, y: 0 }));
    doc = done(connect(doc, 'start', 'out', 'approval1'));
    doc = done(connect(doc, 'approval1', 'reject', 'log1'));
    doc = done(connect(doc, 'approval1', 'reject', 'log1'));
    expect(doc.wires).toEqual([
      { from: 'start', to: 'approval1' },
      { from: 'approval1', port: 'reject', to: 'log1' },
    ]);
  });

  it('refuses a back wire (cycle), a wire into the trigger and an unknown port', () => {
    let doc = done(addNode(emptyDocument('t'), 'log', { x: 0, y: 0 }));
    doc = done(addNode(doc, 'log', { x: 0, y: 0 }));
    doc = done(connect(doc, 'start', 'out', 'log1'));
    doc = done(connect(doc, 'log1', 'out', 'log2'));
    expect(connect(doc, 'log2', 'out', 'log1')).toMatchObject({ refused: { code: 'cycle' } });
    expect(connect(doc, 'log2', 'out', 'log2')).toMatchObject({ refused: { code: 'cycle' } });
    expect(connect(doc, 'log2', 'out', 'start')).toMatchObject({ refused: { code: 'trigger_has_inputs' } });
    expect(connect(doc, 'log1', 'true', 'log2')).toMatchObject({ refused: { code: 'wire_port_unknown' } });
  });

  it('removes nodes with their wires', () => {
    let doc = done(addNode(emptyDocument('t'), 'log', { x: 0, y: 0 }));
    doc = done(connect(doc, 'start', 'out', 'log1'));
    expect(removeNodes(doc, ['log1'])).toMatchObject({ nodes: [{ id: 'start' }], wires: [] });
  });

  it('finds loop body regions with their nesting depth', () => {
    let doc = emptyDocument('t');
    for (const type of ['foreach', 'repeat', 'log', 'log']) doc = done(addNode(doc, type, { x: 0, y: 0 }));
    doc = done(connect(doc, 'start', 'out', 'foreach1'));
    doc = done(connect(doc, 'foreach1', 'body', 'repeat1'));
    doc = done(connect(doc, 'repeat1', 'body', 'log1'));
    doc = done(connect(doc, 'foreach1', 'done', 'log2'));
    const regions = loopRegions(doc);
    expect(regions.map((r) => [r.loop, r.depth, [...r.members].sort()])).toEqual([
      ['foreach1', 0, ['log1', 'repeat1']],
      ['repeat1', 1, ['log1']],
    ]);
  });
});
