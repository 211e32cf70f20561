// A card's size and handles as drawn (canvas/FlowNodeCard.tsx, app.css `.card`), declared to React Flow:
// otherwise it draws every node once to measure it, which on a large flow mounts all the cards only to
// unmount those out of view (onlyRenderVisibleElements), and it waits for all of them to be measured
// before it fits the view. A card drawn at another size (a label on two lines) is measured as usual and
// then keeps its measured size and handles (Canvas.tsx). tests/browser/test_large_flow.py compares the
// declared handles with the drawn ones.
import { Position, type NodeHandle } from '@xyflow/react';
import { PORTS } from '../flows/document';
import { NODE_HEIGHT, NODE_WIDTH } from './cardSize';

const BORDER = 2; // .card's border: its handles are placed inside it (.card is their containing block)
const IN_SIZE = 8; // React Flow's handle, 6 px and a 1 px border
const PORT_SIZE = 14; // .card-port's handle, 12 px and a 1 px border

const declared = new Map<string, NodeHandle[]>();

/** The handles of a card of `type` at its usual size (NODE_WIDTH x NODE_HEIGHT), in flow units. */
export function cardHandles(type: string): NodeHandle[] {
  let handles = declared.get(type);
  if (handles) return handles;
  const inner = NODE_WIDTH - 2 * BORDER;
  const ports = PORTS[type] ?? [];
  handles = ports.map((port, i) => ({
    id: port,
    type: 'source' as const,
    position: Position.Bottom,
    x: BORDER + (inner * (i + 1)) / (ports.length + 1) - PORT_SIZE / 2,
    y: NODE_HEIGHT - BORDER - PORT_SIZE / 2,
    width: PORT_SIZE,
    height: PORT_SIZE,
  }));
  if (type !== 'trigger') {
    handles.push({
      id: 'in',
      type: 'target',
      position: Position.Top,
      x: BORDER + inner / 2 - IN_SIZE / 2,
      y: BORDER - IN_SIZE / 2,
      width: IN_SIZE,
      height: IN_SIZE,
    });
  }
  declared.set(type, handles);
  return handles;
}
