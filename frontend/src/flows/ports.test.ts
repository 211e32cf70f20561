import { describe, expect, it } from 'vitest';
import { authoredPort, portLabel } from '../canvas/ports';
import { layout } from '../canvas/layout';
import {
  addNode,
  connect,
  emptyDocument,
  insertJoin,
  parallelRegions,
  portsOf,
  reachable,
  setEvents,
  type Edit,
  type FlowDocument,
} from './document';

function done(edit: Edit): FlowDocument {
  if ('refused' in edit) throw new Error(edit.refused.code);
  return edit.doc;
}

function waiting(events: string[]): FlowDocument {
  let doc = done(addNode(emptyDocument('t'), 'wait_event', { x: 0, y: 0 }));
  doc = setEvents(doc, 'wait_event1', events).doc;
  for (let i = 0; i < 3; i++) doc = done(addNode(doc, 'log', { x: 0, y: 0 }));
  return done(connect(doc, 'start', 'out', 'wait_event1'));
}

describe('dynamic ports of wait_event', () => {
  it('has one port per event name, then timeout, in the order of the list', () => {
    const doc = waiting(['paid', 'cancelled']);
    expect(portsOf(doc.nodes[1])).toEqual(['paid', 'cancelled', 'timeout']);
    expect(portsOf({ type: 'wait_event', config: {} })).toEqual(['timeout']);
    expect(portsOf({ type: 'parallel', config: {} })).toEqual(['branches', 'done']);
    expect(portsOf({ type: 'join', config: {} })).toEqual(['out']);
  });

  it('wires an event port and refuses a port that is not in the list', () => {
    let doc = waiting(['paid']);
    doc = done(connect(doc, 'wait_event1', 'paid', 'log1'));
    doc = done(connect(doc, 'wait_event1', 'timeout', 'log2'));
    expect(doc.wires.slice(1)).toEqual([
      { from: 'wait_event1', port: 'paid', to: 'log1' },
      { from: 'wait_event1', port: 'timeout', to: 'log2' },
    ]);
    expect(connect(doc, 'wait_event1', 'shipped', 'log3')).toMatchObject({
      refused: { code: 'wire_port_unknown' },
    });
  });

  it('removes the wires of a removed event name in the same edit, and says which', () => {
    let doc = waiting(['paid', 'cancelled']);
    doc = done(connect(doc, 'wait_event1', 'paid', 'log1'));
    doc = done(connect(doc, 'wait_event1', 'cancelled', 'log2'));
    doc = done(connect(doc, 'wait_event1', 'timeout', 'log3'));
    const edit = setEvents(doc, 'wait_event1', ['cancelled']);
    expect(edit.cut).toEqual([{ from: 'wait_event1', port: 'paid', to: 'log1' }]);
    expect(edit.doc.wires.map((w) => w.port ?? 'out')).toEqual(['out', 'cancelled', 'timeout']);
    expect(portsOf(edit.doc.nodes[1])).toEqual(['cancelled', 'timeout']);
    // Adding a name keeps every wire.
    expect(setEvents(doc, 'wait_event1', ['paid', 'cancelled', 'shipped']).cut).toEqual([]);
  });

  it('labels fixed ports from the catalog and event ports with their own names', () => {
    const t = (key: string) => `«${key}»`;
    expect(portLabel(t, { type: 'wait_event' }, 'paid')).toBe('paid');
    expect(portLabel(t, { type: 'wait_event' }, 'timeout')).toBe('«port_timeout»');
    expect(portLabel(t, { type: 'parallel' }, 'branches')).toBe('«port_branches»');
  });

  it('marks only the event ports as words of the author (translate="no")', () => {
    expect(authoredPort({ type: 'wait_event' }, 'paid')).toBe(true);
    expect(authoredPort({ type: 'wait_event' }, 'timeout')).toBe(false);
    expect(authoredPort({ type: 'approval' }, 'approve')).toBe(false);
  });

  it('lays siblings out in the order of the event ports', () => {
    let doc = waiting(['paid', 'cancelled']);
    doc = done(connect(doc, 'wait_event1', 'timeout', 'log1'));
    doc = done(connect(doc, 'wait_event1', 'cancelled', 'log2'));
    doc = done(connect(doc, 'wait_event1', 'paid', 'log3'));
    const placed = layout(doc);
    const x = (id: string) => placed.get(id)?.x ?? NaN;
    expect(x('log3')).toBeLessThan(x('log2'));
    expect(x('log2')).toBeLessThan(x('log1'));
  });
});

describe('parallel lanes and the join fix', () => {
  it('makes one lane per branches wire, in document order, a node reached twice kept in the first', () => {
    let doc = emptyDocument('t');
    for (const type of ['parallel', 'approval', 'approval', 'log', 'log'])
      doc = done(addNode(doc, type, { x: 0, y: 0 }));
    doc = done(connect(doc, 'start', 'out', 'parallel1'));
    doc = done(connect(doc, 'parallel1', 'branches', 'approval1'));
    doc = done(connect(doc, 'parallel1', 'branches', 'approval2'));
    doc = done(connect(doc, 'approval1', 'approve', 'log1'));
    doc = done(connect(doc, 'approval2', 'approve', 'log1'));
    doc = done(connect(doc, 'parallel1', 'done', 'log2'));
    expect(parallelRegions(doc)).toEqual([
      { parallel: 'parallel1', depth: 0, lanes: [['approval1', 'log1'], ['approval2']] },
    ]);
  });

  it('inserts a join before a node where branches meet: every wire in goes to the join', () => {
    let doc = emptyDocument('t');
    for (const type of ['condition', 'log', 'log', 'http', 'log'])
      doc = done(addNode(doc, type, { x: 0, y: 100 }));
    doc = done(connect(doc, 'start', 'out', 'condition1'));
    doc = done(connect(doc, 'condition1', 'true', 'log1'));
    doc = done(connect(doc, 'condition1', 'false', 'log2'));
    doc = done(connect(doc, 'log1', 'out', 'http1'));
    doc = done(connect(doc, 'log2', 'out', 'http1'));
    doc = done(connect(doc, 'http1', 'out', 'log3'));
    const { doc: fixed, join } = insertJoin(doc, 'http1');
    expect(join).toBe('join1');
    expect(fixed.nodes.find((n) => n.id === 'join1')).toMatchObject({
      type: 'join',
      config: { wait: 'all' },
      position: { x: 0, y: 100 },
    });
    expect(fixed.wires.filter((w) => w.to === 'join1').map((w) => w.from)).toEqual(['log1', 'log2']);
    expect(fixed.wires.filter((w) => w.to === 'http1')).toEqual([{ from: 'join1', to: 'http1' }]);
    expect(reachable(fixed, 'condition1').has('http1')).toBe(true);
    // The node and what follows it move down a row; what leads to it stays.
    const y = (id: string) => fixed.nodes.find((n) => n.id === id)?.position?.y;
    expect([y('http1'), y('log3'), y('log1')]).toEqual([250, 250, 100]);
  });
});
