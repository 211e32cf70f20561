// The panel of a parallel and of a join: what the node does, in a sentence, and its wait rule; a parallel
// may also start one branch per item of a list (`items`, with each branch's item named by `as`), and say
// what its slower branches do once the rule is met (`rest`: cancelled, or left running).
import { useTranslation } from 'react-i18next';
import { incomingCount, portOf, setConfig, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { RestField } from './RestField';
import { TemplateInput } from './TemplateInput';
import { WaitRuleField } from './WaitRuleField';

function change(node: FlowNode, patch: Record<string, unknown>) {
  // An emptied field leaves the config: a parallel without `items` branches by its wires again.
  const config = Object.fromEntries(
    Object.entries({ ...node.config, ...patch }).filter(([name, value]) => !(name in patch && value === '')),
  );
  useEditor.getState().apply(setConfig(useEditor.getState().doc, node.id, config));
}

export function WaitPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const wired = useEditor((s) =>
    node.type === 'join'
      ? incomingCount(s.doc, node.id)
      : s.doc.wires.filter((w) => w.from === node.id && portOf(w) === 'branches').length,
  );
  const items = typeof node.config.items === 'string' ? node.config.items : '';
  const name = typeof node.config.as === 'string' ? node.config.as : '';
  // Over items, the number of branches is known only when a run gets there: the rule's N is not capped.
  const total = node.type === 'parallel' && items ? null : wired;
  return (
    <div className="wait-panel">
      <p className="hint">
        {node.type === 'join'
          ? t('ui_wait_help_join')
          : items
            ? t('ui_wait_help_parallel_items')
            : t('ui_wait_help_parallel')}
      </p>
      <WaitRuleField
        config={node.config}
        total={total}
        disabled={readOnly}
        onChange={(wait) => change(node, { wait })}
      />
      {node.type === 'parallel' && (
        <>
          <RestField
            config={node.config}
            disabled={readOnly}
            onChange={(rest) => change(node, { rest: rest === 'cancel' ? '' : rest })}
          />
          <label className="field" id={`items-${node.id}-label`}>
            {t('ui_field_items')}
          </label>
          <TemplateInput
            id={`items-${node.id}`}
            nodeId={node.id}
            value={items}
            multiline={false}
            disabled={readOnly}
            labelledBy={`items-${node.id}-label`}
            onChange={(value) => change(node, { items: value, ...(value ? {} : { as: '' }) })}
          />
          <label className="field">
            {t('ui_field_as')}
            <input
              value={name}
              disabled={readOnly || !items}
              onChange={(e) => change(node, { as: e.target.value })}
            />
          </label>
        </>
      )}
    </div>
  );
}
