import { describe, expect, it } from 'vitest';
import { moveNodes, type FlowDocument } from '../flows/document';
import { layout, NODE_HEIGHT, NODE_WIDTH } from './layout';
import { parallelBoxes } from './lanes';
import { regionBoxes } from './regions';

// trigger -> parallel "both": lane 1 legal -> note, lane 2 finance, lane 3 a loop around "each_ask";
// done -> pay. "aside" hangs off the trigger beside the parallel.
const DOC: FlowDocument = {
  format: 'flowyard.flow/1',
  name: 't',
  nodes: [
    { id: 'start', type: 'trigger', config: {} },
    { id: 'aside', type: 'log', config: {} },
    { id: 'both', type: 'parallel', config: { wait: 'all' } },
    { id: 'legal', type: 'approval', config: {} },
    { id: 'note', type: 'log', config: {} },
    { id: 'finance', type: 'approval', config: {} },
    { id: 'each', type: 'foreach', config: {} },
    { id: 'each_ask', type: 'approval', config: {} },
    { id: 'pay', type: 'http', config: {} },
  ],
  wires: [
    { from: 'both', port: 'done', to: 'pay' },
    { from: 'start', to: 'both' },
    { from: 'start', to: 'aside' },
    { from: 'both', port: 'branches', to: 'legal' },
    { from: 'legal', port: 'approve', to: 'note' },
    { from: 'both', port: 'branches', to: 'finance' },
    { from: 'both', port: 'branches', to: 'each' },
    { from: 'each', port: 'body', to: 'each_ask' },
  ],
};

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  outer.x <= inner.x &&
  outer.y <= inner.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('lanes of a parallel', () => {
  const placed = moveNodes(DOC, layout(DOC));
  const at = (id: string): Box => {
    const p = placed.nodes.find((n) => n.id === id)?.position ?? { x: NaN, y: NaN };
    return { x: p.x, y: p.y, width: NODE_WIDTH, height: NODE_HEIGHT };
  };
  const [box] = parallelBoxes(placed);
  if (!box) throw new Error('no parallel box');
  const outer: Box = { ...box.position, width: box.width, height: box.height };
  const lanes: Box[] = box.lanes.map((l) => ({
    x: box.position.x + l.position.x,
    y: box.position.y + l.position.y,
    width: l.width,
    height: l.height,
  }));

  it('puts the lanes side by side in the order of the branches wires, done below all of them', () => {
    expect(box.lanes.map((l) => l.head)).toEqual(['legal', 'finance', 'each']);
    expect(at('legal').y).toBe(at('finance').y);
    expect(at('legal').y).toBe(at('each').y);
    expect(at('legal').x).toBeLessThan(at('finance').x);
    expect(at('finance').x).toBeLessThan(at('each').x);
    for (const id of ['note', 'finance', 'each_ask']) expect(at('pay').y).toBeGreaterThan(at(id).y);
    expect(at('both').y).toBeLessThan(at('legal').y);
  });

  it('draws one box per lane around its nodes, lanes apart, all inside the parallel box, done outside', () => {
    const [legal, finance, loop] = lanes as [Box, Box, Box];
    for (const id of ['legal', 'note']) expect(inside(at(id), legal)).toBe(true);
    expect(inside(at('finance'), finance)).toBe(true);
    expect(inside(at('each_ask'), loop)).toBe(true);
    expect(overlap(legal, finance) || overlap(finance, loop) || overlap(legal, loop)).toBe(false);
    for (const lane of lanes) expect(inside(lane, outer)).toBe(true);
    expect(inside(at('both'), outer)).toBe(true);
    // The lanes start below the parallel node: its card is not inside any lane.
    for (const lane of lanes) expect(overlap(at('both'), lane)).toBe(false);
    for (const id of ['pay', 'aside', 'start']) expect(overlap(at(id), outer)).toBe(false);
    // The loop inside the third lane is drawn inside that lane.
    const loopBox = regionBoxes(placed).find((r) => r.loop === 'each');
    expect(
      loopBox && inside({ ...loopBox.position, width: loopBox.width, height: loopBox.height }, loop),
    ).toBe(true);
  });

  it('nests a parallel inside a lane of another', () => {
    const nested: FlowDocument = {
      ...DOC,
      nodes: [
        ...DOC.nodes,
        { id: 'inner', type: 'parallel', config: {} },
        { id: 'x', type: 'log', config: {} },
      ],
      wires: [
        ...DOC.wires,
        { from: 'finance', port: 'approve', to: 'inner' },
        { from: 'inner', port: 'branches', to: 'x' },
      ],
    };
    const boxes = parallelBoxes(moveNodes(nested, layout(nested)));
    const [outerBox, innerBox] = boxes;
    expect(boxes.map((b) => [b.parallel, b.depth])).toEqual([
      ['both', 0],
      ['inner', 1],
    ]);
    expect(
      outerBox &&
        innerBox &&
        inside(
          { ...innerBox.position, width: innerBox.width, height: innerBox.height },
          {
            x: outerBox.position.x + (outerBox.lanes[1]?.position.x ?? NaN),
            y: outerBox.position.y + (outerBox.lanes[1]?.position.y ?? NaN),
            width: outerBox.lanes[1]?.width ?? 0,
            height: outerBox.lanes[1]?.height ?? 0,
          },
        ),
    ).toBe(true);
  });
});
