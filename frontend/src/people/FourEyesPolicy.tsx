// The self-approval policy: each approval node decides (the default), or never. Never holds every
// approval to four eyes, those of flow versions saved before included; the sentence says so.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { peopleKeys, policiesQuery, setSelfApproval, type SelfApproval } from '../api/people';
import { failureSentence } from '../api/failure';
import { formatMoment } from '../i18n/i18n';

export function FourEyesPolicy() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const policy = useQuery(policiesQuery);
  const change = useMutation({
    mutationFn: (value: SelfApproval) => setSelfApproval(value),
    onSettled: () => void queries.invalidateQueries({ queryKey: peopleKeys.policies }),
  });
  const current = policy.data?.self_approval;
  const never = current?.value === 'never';
  return (
    <section className="people-policy" aria-labelledby="four-eyes-policy">
      <h2 id="four-eyes-policy">{t('ui_people_policy_title')}</h2>
      <label>
        <input
          type="checkbox"
          name="self-approval-never"
          checked={never}
          disabled={!current || change.isPending}
          onChange={(e) => change.mutate(e.target.checked ? 'never' : 'per_node')}
        />
        {t('ui_people_policy_never')}
      </label>
      <p className="hint">{t(never ? 'ui_people_policy_never_hint' : 'ui_people_policy_per_node_hint')}</p>
      {current?.set_by && current.set_at && (
        <p className="hint">
          {t('ui_people_policy_set_by', { by: current.set_by, at: formatMoment(current.set_at) })}
        </p>
      )}
      {(policy.error ?? change.error) && (
        <p role="alert">{failureSentence(policy.error ?? change.error, t)}</p>
      )}
    </section>
  );
}
