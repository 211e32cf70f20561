// The wire from a parallel's `done` port: drawn around the right side of the parallel's region and
// out below it, so it reads as leaving the region after the branches rather than crossing a lane.
import { BaseEdge, type Edge, type EdgeProps } from '@xyflow/react';
import { parallelBoxes } from './lanes';
import type { FlowDocument } from '../flows/document';

export type DoneEdgeData = { right: number; bottom: number };
export type DoneEdgeType = Edge<DoneEdgeData, 'done'>;

const CLEAR = 14;

export function DoneEdge(props: EdgeProps<DoneEdgeType>) {
  const { sourceX, sourceY, targetX, targetY, data, label, markerEnd, style, interactionWidth } = props;
  if (!data) return null;
  const right = Math.max(data.right, sourceX + CLEAR);
  const bottom = Math.min(Math.max(data.bottom, sourceY + CLEAR), targetY - CLEAR);
  const path = [
    `M ${sourceX},${sourceY}`,
    `L ${sourceX},${sourceY + CLEAR}`,
    `L ${right},${sourceY + CLEAR}`,
    `L ${right},${bottom}`,
    `L ${targetX},${bottom}`,
    `L ${targetX},${targetY}`,
  ].join(' ');
  return (
    <BaseEdge
      path={path}
      label={label}
      labelX={right}
      labelY={(sourceY + bottom) / 2}
      markerEnd={markerEnd}
      style={style}
      interactionWidth={interactionWidth}
    />
  );
}

/** Where each parallel's `done` wires turn: just right of and just below its region. */
export function doneRoutes(doc: FlowDocument): Map<string, DoneEdgeData> {
  return new Map(
    parallelBoxes(doc)
      .filter((box) => box.lanes.length > 0)
      .map((box) => [
        box.parallel,
        { right: box.position.x + box.width + CLEAR, bottom: box.position.y + box.height + CLEAR },
      ]),
  );
}
