// A loop's body region: a tinted box behind the loop node and its body, deeper loops darker, so the
// closed region reads at a glance without any back wire.
import type { Node, NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';

export type RegionData = { loop: string; depth: number; width: number; height: number };
export type RegionNodeType = Node<RegionData, 'region'>;

export function RegionNode({ data }: NodeProps<RegionNodeType>) {
  const { t } = useTranslation();
  return (
    <div
      className={`region region-depth-${Math.min(data.depth, 3)}`}
      style={{ width: data.width, height: data.height }}
      data-region={data.loop}
    >
      <span className="region-label">{t('ui_canvas_loop_body', { loop: data.loop })}</span>
    </div>
  );
}
