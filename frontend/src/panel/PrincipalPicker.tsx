// Users and groups as chips, one added at a time by its kind and name: who may decide an approval and
// whom it escalates to. The document keeps `group:finance` and `user:ann`; a person reads "Group finance".
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { principalName } from '../runs/format';
import { FieldFindings } from './FieldFindings';

interface Props {
  legend: string; // a ui_ key
  principals: string[];
  readOnly: boolean;
  nodeId: string;
  field: string;
  onChange: (principals: string[]) => void;
}

export function PrincipalPicker({ legend, principals, readOnly, nodeId, field, onChange }: Props) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'user' | 'group'>('group');
  const [who, setWho] = useState('');
  const chip = (principal: string) =>
    principal.startsWith('group:')
      ? principalName(t, principal)
      : t('ui_approvers_user', { name: principalName(t, principal) });
  return (
    <fieldset className={`principals principals-${field}`}>
      <legend>{t(legend)}</legend>
      <ul className="chips">
        {principals.map((principal) => (
          <li key={principal}>
            {chip(principal)}
            <button
              type="button"
              disabled={readOnly}
              aria-label={t('ui_approvers_remove', { name: chip(principal) })}
              onClick={() => onChange(principals.filter((p) => p !== principal))}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div className="row">
        <select
          aria-label={t('ui_approvers_kind')}
          value={kind}
          disabled={readOnly}
          onChange={(e) => setKind(e.target.value as 'user' | 'group')}
        >
          <option value="group">{t('ui_approvers_kind_group')}</option>
          <option value="user">{t('ui_approvers_kind_user')}</option>
        </select>
        <input
          aria-label={t('ui_approvers_name')}
          value={who}
          disabled={readOnly}
          onChange={(e) => setWho(e.target.value.trim())}
        />
        <button
          type="button"
          disabled={readOnly || !who}
          onClick={() => {
            const principal = `${kind}:${who}`;
            if (!principals.includes(principal)) onChange([...principals, principal]);
            setWho('');
          }}
        >
          {t('ui_approvers_add')}
        </button>
      </div>
      <FieldFindings nodeId={nodeId} field={field} />
    </fieldset>
  );
}
