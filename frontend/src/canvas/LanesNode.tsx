// A parallel's region: a tinted box behind the parallel node and its branches, one lane per wire of
// `branches` side by side, numbered in the order the wires were drawn. Like a loop's region it takes no
// clicks; the cards drawn over it do.
import type { Node, NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument } from '../flows/document';
import { parallelBoxes, type LaneBox } from './lanes';
import './parallel.css';

export type LanesData = { parallel: string; depth: number; width: number; height: number; lanes: LaneBox[] };
export type LanesNodeType = Node<LanesData, 'lanes'>;

export function LanesNode({ data }: NodeProps<LanesNodeType>) {
  const { t } = useTranslation();
  return (
    <div
      className={`lanes lanes-depth-${Math.min(data.depth, 3)}`}
      style={{ width: data.width, height: data.height }}
      data-parallel={data.parallel}
    >
      <span className="lanes-label">{t('ui_canvas_parallel_region', { node: data.parallel })}</span>
      {data.lanes.map((lane, i) => (
        <div
          key={`${lane.head}-${i}`}
          className="lane"
          data-lane={i + 1}
          data-head={lane.head}
          style={{ left: lane.position.x, top: lane.position.y, width: lane.width, height: lane.height }}
        >
          <span className="lane-label">{t('ui_canvas_lane', { position: i + 1 })}</span>
        </div>
      ))}
    </div>
  );
}

/** The canvas nodes of every parallel's region, behind the cards (deeper parallels in front). */
export function lanesNodes(doc: FlowDocument): LanesNodeType[] {
  return parallelBoxes(doc).map((box) => ({
    id: `lanes:${box.parallel}`,
    type: 'lanes',
    position: box.position,
    data: {
      parallel: box.parallel,
      depth: box.depth,
      width: box.width,
      height: box.height,
      lanes: box.lanes,
    },
    selectable: false,
    draggable: false,
    focusable: false,
    zIndex: -1 - box.depth,
  }));
}
