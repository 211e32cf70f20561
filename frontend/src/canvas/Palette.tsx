// The palette: every node type with its catalog name and one-line description. Click adds the node in
// the middle of the view; dragging it onto the canvas adds it where it is dropped.
import { useTranslation } from 'react-i18next';
import { NODE_TYPES } from '../flows/document';
import { DRAG_TYPE } from './Canvas';

export function Palette({ onAdd, disabled }: { onAdd: (type: string) => void; disabled: boolean }) {
  const { t } = useTranslation();
  return (
    <aside className="palette" aria-labelledby="palette-title">
      <h2 id="palette-title">{t('ui_palette_title')}</h2>
      <ul>
        {NODE_TYPES.map((type) => (
          <li key={type}>
            <button
              type="button"
              draggable={!disabled}
              disabled={disabled}
              data-type={type}
              onClick={() => onAdd(type)}
              onDragStart={(e) => {
                e.dataTransfer.setData(DRAG_TYPE, type);
                e.dataTransfer.effectAllowed = 'copy';
              }}
            >
              <span className="palette-name">{t(`node_type_${type}`)}</span>
              <span className="palette-description">{t(`node_type_${type}_description`)}</span>
            </button>
          </li>
        ))}
      </ul>
    </aside>
  );
}
