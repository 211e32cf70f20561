// Grant a user a right, on one flow or everywhere. Deciding is a right of its own: no other right implies
// it, admin included, so the form says so beside the choice.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { grantRights, invalidatePeople } from '../api/people';
import { failureSentence } from '../api/failure';
import { RIGHT_KEYS, RIGHTS } from './people';

export function GrantRight({ names, flowNames }: { names: string[]; flowNames: Map<number, string> }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [user, setUser] = useState('');
  const [right, setRight] = useState<string>('decide');
  const [flow, setFlow] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const grant = useMutation({
    mutationFn: () => grantRights(user, [flow ? `${right}:${flow}` : right]),
    onSuccess: () => setDone(user),
    onSettled: () => invalidatePeople(queries),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    grant.mutate();
  };
  return (
    <form className="people-form" aria-labelledby="grant-right" onSubmit={submit}>
      <h2 id="grant-right">{t('ui_people_grant')}</h2>
      <label className="field">
        {t('ui_people_name')}
        <select name="grant-user" required value={user} onChange={(e) => setUser(e.target.value)}>
          <option value="" disabled>
            {t('ui_people_choose_user')}
          </option>
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t('ui_people_right')}
        <select name="grant-right" value={right} onChange={(e) => setRight(e.target.value)}>
          {RIGHTS.map((r) => (
            <option key={r} value={r}>
              {t(RIGHT_KEYS[r] ?? r)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t('ui_filter_flow')}
        <select name="grant-flow" value={flow} onChange={(e) => setFlow(e.target.value)}>
          <option value="">{t('ui_people_everywhere')}</option>
          {[...flowNames].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">{t('ui_people_decide_own')}</p>
      <button type="submit" disabled={grant.isPending || !user}>
        {t('ui_people_grant_button')}
      </button>
      {done && <p role="status">{t('ui_people_granted', { name: done })}</p>}
      {grant.error && <p role="alert">{failureSentence(grant.error, t)}</p>}
    </form>
  );
}
