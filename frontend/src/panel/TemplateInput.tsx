// A text field that holds a template: typing `{{` offers what is in scope at the node (scope.ts) as a
// listbox (arrows, Enter or Tab to take one, Escape to close), and a name nothing provides is named below
// the field. The server's findings stay the rule; this hint only comes sooner.
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { insert, openTemplate, suggestions, unknownNames } from './scope';
import { useScope } from './useScope';

interface Props {
  id: string;
  nodeId: string;
  value: string;
  multiline: boolean;
  disabled: boolean;
  onChange: (value: string) => void;
  /** The field's visible label, when the caller has no <label for> of its own. */
  labelledBy?: string;
}

export function TemplateInput({ id, nodeId, value, multiline, disabled, onChange, labelledBy }: Props) {
  const { t } = useTranslation();
  const scope = useScope(nodeId);
  const field = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [open, setOpen] = useState<{ start: number; caret: number; typed: string } | null>(null);
  const [active, setActive] = useState(0);
  const listId = useId();
  const offered = open ? suggestions(scope, open.typed) : [];
  const unknown = unknownNames(value, scope);

  function look(text: string, caret: number) {
    const at = openTemplate(text, caret);
    setOpen(at ? { ...at, caret } : null);
    setActive(0);
  }

  function take(path: string) {
    if (!open) return;
    const next = insert(value, open.start, open.caret, path);
    onChange(next.text);
    setOpen(null);
    requestAnimationFrame(() => field.current?.setSelectionRange(next.caret, next.caret));
  }

  const props = {
    id,
    ref: field,
    translate: 'no' as const,
    value,
    disabled,
    spellCheck: false,
    role: 'combobox',
    'aria-labelledby': labelledBy,
    'aria-autocomplete': 'list' as const,
    'aria-expanded': offered.length > 0,
    'aria-controls': listId,
    'aria-activedescendant': offered.length ? `${listId}-${active}` : undefined,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      onChange(e.target.value);
      look(e.target.value, e.target.selectionStart ?? e.target.value.length);
    },
    onKeyDown: (e: React.KeyboardEvent) => {
      if (!offered.length) return;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const step = e.key === 'ArrowDown' ? 1 : offered.length - 1;
        setActive((i) => (i + step) % offered.length);
      } else if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        const chosen = offered[active] ?? offered[0];
        if (chosen) take(chosen.path);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        setOpen(null);
      }
    },
    onBlur: () => setOpen(null),
  };

  return (
    <div className="template-input">
      {multiline ? <textarea rows={3} {...props} /> : <input {...props} />}
      <ul id={listId} role="listbox" className="template-options" hidden={!offered.length}>
        {offered.map((entry, i) => (
          <li
            key={entry.path}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === active}
            translate="no"
            // mousedown, not click: a click would blur the field first and close the list.
            onMouseDown={(e) => {
              e.preventDefault();
              take(entry.path);
            }}
          >
            {entry.path}
          </li>
        ))}
      </ul>
      {unknown.map((name) => (
        <p key={name} className="template-unknown" data-name={name}>
          {t('ui_template_unknown', { name })}
        </p>
      ))}
    </div>
  );
}
