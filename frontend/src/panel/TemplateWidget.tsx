// The rjsf widget for template fields (ConfigPanel's uiSchema names them): TemplateInput, told which
// node it is at through the form's context. A number or boolean typed into a condition's operand keeps
// its type while the text still reads as one.
import type { WidgetProps } from '@rjsf/utils';
import { TemplateInput } from './TemplateInput';

export interface FormContext {
  nodeId: string;
}

export function TemplateWidget({ id, value, disabled, readonly, onChange, registry, options }: WidgetProps) {
  const { nodeId } = registry.formContext as FormContext;
  const text = value === undefined || value === null ? '' : String(value);
  return (
    <TemplateInput
      id={id}
      nodeId={nodeId}
      value={text}
      multiline={options.multiline === true}
      disabled={Boolean(disabled || readonly)}
      onChange={(next) => onChange(sameType(value, next))}
    />
  );
}

function sameType(before: unknown, text: string): unknown {
  if (typeof before === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (typeof before === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}
