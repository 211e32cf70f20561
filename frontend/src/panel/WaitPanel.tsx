// The panel of a parallel and of a join: what the node does, in a sentence, and its wait rule.
import { useTranslation } from 'react-i18next';
import { incomingCount, portOf, setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { WaitRuleField } from './WaitRuleField';

export function WaitPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const total = useEditor((s) =>
    node.type === 'join'
      ? incomingCount(s.doc, node.id)
      : s.doc.wires.filter((w) => w.from === node.id && portOf(w) === 'branches').length,
  );
  return (
    <div className="wait-panel">
      <p className="hint">{node.type === 'join' ? t('ui_wait_help_join') : t('ui_wait_help_parallel')}</p>
      <WaitRuleField
        config={node.config}
        total={total}
        disabled={readOnly}
        onChange={(wait) =>
          useEditor.getState().apply(setConfig(useEditor.getState().doc, node.id, { ...node.config, wait }))
        }
      />
    </div>
  );
}
