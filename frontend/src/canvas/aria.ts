// React Flow's own words for assistive technology (the minimap's name, the zoom buttons, how to move a
// card with the keyboard) are English; the canvases pass these instead, from the catalogs. Its sentence
// for a moved card names the direction in English, so ours says where the card is now.
import { useMemo } from 'react';
import type { AriaLabelConfig } from '@xyflow/react';
import { useTranslation } from 'react-i18next';

export function useFlowAria(): Partial<AriaLabelConfig> {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      'node.a11yDescription.default': t('ui_canvas_node_help'),
      'node.a11yDescription.keyboardDisabled': t('ui_canvas_node_help'),
      'node.a11yDescription.ariaLiveMessage': ({ x, y }: { x: number; y: number }) =>
        t('ui_canvas_node_moved', { x: Math.round(x), y: Math.round(y) }),
      'edge.a11yDescription.default': t('ui_canvas_wire_help'),
      'controls.ariaLabel': t('ui_canvas_controls'),
      'controls.zoomIn.ariaLabel': t('ui_canvas_zoom_in'),
      'controls.zoomOut.ariaLabel': t('ui_canvas_zoom_out'),
      'controls.fitView.ariaLabel': t('ui_toolbar_fit'),
      'minimap.ariaLabel': t('ui_canvas_minimap'),
    }),
    [t],
  );
}
