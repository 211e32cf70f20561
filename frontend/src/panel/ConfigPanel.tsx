// The selected node's settings: a form generated from its type's JSON Schema (no hand-written form per
// type), except the approval node, whose panel is made for people who are not developers.
import Form from '@rjsf/core';
import { TranslatableString, englishStringTranslator } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { failureSentence } from '../api/failure';
import { setConfig, setLabel, type FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { ApprovalPanel } from './ApprovalPanel';
import { OWN_PANELS } from './ownPanels';
import { prepareSchema, uiSchemaFor, withTemplateWidget } from './schemaForm';
import { TemplateWidget } from './TemplateWidget';
import { TriggerPanel } from './TriggerPanel';

// rjsf's own words (its buttons), from the catalogs; anything else it says falls back to its English.
const FORM_STRINGS: Partial<Record<TranslatableString, string>> = {
  [TranslatableString.AddButton]: 'ui_form_add',
  [TranslatableString.AddItemButton]: 'ui_form_add',
  [TranslatableString.RemoveButton]: 'ui_form_remove',
  [TranslatableString.MoveUpButton]: 'ui_form_move_up',
  [TranslatableString.MoveDownButton]: 'ui_form_move_down',
  [TranslatableString.CopyButton]: 'ui_form_copy',
  [TranslatableString.KeyLabel]: 'ui_form_key',
  [TranslatableString.NewStringDefault]: 'ui_form_new_value',
};

const NO_CONST_DEFAULTS = { constAsDefaults: 'never' } as const;

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function ConfigPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  const { t } = useTranslation();
  const apply = useEditor((s) => s.apply);
  const schema = useQuery({
    queryKey: ['schema', node.type],
    queryFn: async () =>
      unwrap(await api.GET('/api/schemas/{name}', { params: { path: { name: node.type } } })),
    staleTime: Infinity,
  });
  const prepared = useMemo(() => (schema.data ? prepareSchema(schema.data, t) : null), [schema.data, t]);
  const Own = OWN_PANELS[node.type];
  const ui = useMemo(
    () => (schema.data ? withTemplateWidget(uiSchemaFor(schema.data, t), schema.data, TemplateWidget) : null),
    [schema.data, t],
  );

  return (
    <section className="config" aria-labelledby="config-title">
      <h2 id="config-title">{t('ui_panel_title', { type: t(`node_type_${node.type}`), id: node.id })}</h2>
      <label className="field">
        {t('ui_panel_label')}
        <input
          value={node.label ?? ''}
          disabled={readOnly}
          onChange={(e) => apply(setLabel(useEditor.getState().doc, node.id, e.target.value))}
        />
      </label>
      {schema.error && <p role="alert">{failureSentence(schema.error, t)}</p>}
      {node.type === 'approval' ? (
        <ApprovalPanel node={node} readOnly={readOnly} />
      ) : Own ? (
        <Own node={node} readOnly={readOnly} />
      ) : (
        prepared &&
        ui && (
          <Form
            schema={prepared}
            uiSchema={ui}
            formData={node.config}
            validator={validator}
            disabled={readOnly}
            noHtml5Validate
            // A select's choices are consts in a oneOf (schemaForm.ts), which rjsf would otherwise take as
            // defaults and write into the config the moment the form opens: selecting a node edited it.
            experimental_defaultFormStateBehavior={NO_CONST_DEFAULTS}
            showErrorList={false}
            idPrefix={`config-${node.id}`}
            formContext={{ nodeId: node.id }}
            translateString={(text, params) => {
              const key = FORM_STRINGS[text];
              return key ? t(key) : englishStringTranslator(text, params);
            }}
            onChange={({ formData }) => {
              const doc = useEditor.getState().doc;
              const current = doc.nodes.find((n) => n.id === node.id)?.config;
              if (!sameJson(current, formData))
                apply(setConfig(doc, node.id, formData as Record<string, unknown>));
            }}
          />
        )
      )}
      {node.type === 'trigger' && <TriggerPanel node={node} readOnly={readOnly} />}
    </section>
  );
}
