// The face of a node, the same on the editor's canvas and on the run page: its type's icon on its kind's
// colour, the author's label first (the id when there is none; a long one cut at three lines, whole in its
// tooltip) and the type's name under it.
import { useTranslation } from 'react-i18next';
import type { FlowNode } from '../flows/document';
import { looks } from './kinds';

export function NodeFace({ node }: { node: Pick<FlowNode, 'id' | 'type' | 'label'> }) {
  const { t } = useTranslation();
  const { icon: Icon, kind } = looks(node.type);
  return (
    <div className="card-face">
      <span className={`card-icon kind-${kind}`} aria-hidden="true">
        <Icon size={16} strokeWidth={2.2} />
      </span>
      <div className="card-words">
        <div className="card-id" translate="no" title={node.label ?? node.id}>
          {node.label ?? node.id}
        </div>
        <div className="card-type">{t(`node_type_${node.type}`)}</div>
      </div>
    </div>
  );
}
