// People (admins only): users with their address, language, groups and rights, each right revocable
// here; forms to add a user, grant a right on one flow or everywhere, and make or revoke API tokens; and
// the rights trail for those who also hold the audit right (the trail's readers are auditors, so an
// admin without it is told so rather than shown it).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { flowsQuery } from '../api/flows';
import { invalidatePeople, peopleQuery, removeUser, revokeRight, type Person } from '../api/people';
import { failureSentence } from '../api/failure';
import { useRights } from '../runs/rights';
import { useSession } from '../api/session';
import { isLocale } from '../i18n/i18n';
import { formatList } from '../i18n/format';
import { NAMES } from '../shell/LanguageMenu';
import { NewUser } from './NewUser';
import { GrantRight } from './GrantRight';
import { Tokens } from './Tokens';
import { FourEyesPolicy } from './FourEyesPolicy';
import { Trail } from './Trail';
import { rightLabel } from './people';

export function PeoplePage() {
  const { t } = useTranslation();
  const may = useRights();
  const admin = may('admin');
  const me = useSession((s) => s.user);
  const people = useQuery({ ...peopleQuery, enabled: admin });
  const flows = useQuery({ ...flowsQuery, enabled: admin });
  if (!admin) {
    return (
      <section className="page">
        <h1>{t('ui_nav_people')}</h1>
        <p role="alert">{t('ui_people_admin_only')}</p>
      </section>
    );
  }
  const flowNames = new Map((flows.data?.flows ?? []).map((f) => [f.id, f.name] as const));
  const names = (people.data?.people ?? []).map((p) => p.name);
  return (
    <section className="page people">
      <h1>{t('ui_nav_people')}</h1>
      {people.error && <p role="alert">{failureSentence(people.error, t)}</p>}
      <table className="people-list">
        <thead>
          <tr>
            <th scope="col">{t('ui_people_name')}</th>
            <th scope="col">{t('ui_people_email')}</th>
            <th scope="col">{t('ui_people_locale')}</th>
            <th scope="col">{t('ui_people_groups')}</th>
            <th scope="col">{t('ui_people_rights')}</th>
            <th scope="col">{t('ui_people_tokens')}</th>
            <th scope="col">{t('ui_people_remove')}</th>
          </tr>
        </thead>
        <tbody>
          {people.data?.people.map((person) => (
            <tr key={person.name} data-user={person.name}>
              <td translate="no">{person.name}</td>
              <td translate="no">{person.email ?? ''}</td>
              <td translate={person.locale && isLocale(person.locale) ? undefined : 'no'}>
                {person.locale && isLocale(person.locale) ? t(NAMES[person.locale]) : (person.locale ?? '')}
              </td>
              <td translate="no">{formatList(person.groups)}</td>
              <td>
                <RightChips person={person} flowNames={flowNames} />
              </td>
              <td>{person.tokens}</td>
              <td>{person.name !== me && <RemoveUser name={person.name} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="people-forms">
        <NewUser />
        <GrantRight names={names} flowNames={flowNames} />
      </div>
      <FourEyesPolicy />
      <Tokens names={names} />
      <Trail flowNames={flowNames} />
    </section>
  );
}

function RightChips({ person, flowNames }: { person: Person; flowNames: Map<number, string> }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const revoke = useMutation({
    mutationFn: (right: string) => revokeRight(person.name, right),
    onSettled: () => invalidatePeople(queries),
  });
  return (
    <>
      <ul className="chips" aria-label={t('ui_people_rights_of', { name: person.name })}>
        {person.rights.map((right) => {
          const label = rightLabel(t, right, flowNames);
          return (
            <li key={right} data-right={right}>
              <span>{label}</span>
              <button
                type="button"
                aria-label={t('ui_people_revoke_right', { right: label, name: person.name })}
                title={t('ui_people_revoke_right', { right: label, name: person.name })}
                disabled={revoke.isPending}
                onClick={() => {
                  if (
                    window.confirm(t('ui_people_revoke_right_confirm', { right: label, name: person.name }))
                  )
                    revoke.mutate(right);
                }}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      {revoke.error && <p role="alert">{failureSentence(revoke.error, t)}</p>}
    </>
  );
}

/** Remove a user with their rights, groups, tokens and sessions; not oneself (the server refuses it too). */
function RemoveUser({ name }: { name: string }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const remove = useMutation({
    mutationFn: () => removeUser(name),
    onSettled: () => invalidatePeople(queries),
  });
  return (
    <>
      <button
        type="button"
        disabled={remove.isPending}
        aria-label={t('ui_people_remove_user', { name })}
        onClick={() => {
          if (window.confirm(t('ui_people_remove_user_confirm', { name }))) remove.mutate();
        }}
      >
        {t('ui_people_remove')}
      </button>
      {remove.error && <p role="alert">{failureSentence(remove.error, t)}</p>}
    </>
  );
}
