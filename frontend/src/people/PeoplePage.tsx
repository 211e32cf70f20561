// People (admins only): users with their address, language, groups, rights and token counts. Creating
// and revoking is done with the CLI until the admin API lands; this page reads.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { useRights } from '../runs/rights';

interface Person {
  name: string;
  email: string | null;
  locale: string | null;
  groups: string[];
  rights: string[];
  tokens: number;
}

export function PeoplePage() {
  const { t } = useTranslation();
  const may = useRights();
  const admin = may('admin');
  const people = useQuery({
    queryKey: ['people'],
    enabled: admin,
    queryFn: async () => unwrap(await api.GET('/api/people')) as unknown as { people: Person[] },
  });
  if (!admin) {
    return (
      <section className="page">
        <h1>{t('ui_nav_people')}</h1>
        <p role="alert">{t('ui_people_admin_only')}</p>
      </section>
    );
  }
  return (
    <section className="page">
      <h1>{t('ui_nav_people')}</h1>
      <p className="hint">{t('ui_people_cli')}</p>
      {people.error && <p role="alert">{people.error.message}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">{t('ui_people_name')}</th>
            <th scope="col">{t('ui_people_email')}</th>
            <th scope="col">{t('ui_people_groups')}</th>
            <th scope="col">{t('ui_people_rights')}</th>
            <th scope="col">{t('ui_people_tokens')}</th>
          </tr>
        </thead>
        <tbody>
          {people.data?.people.map((person) => (
            <tr key={person.name}>
              <td>{person.name}</td>
              <td>{person.email ?? ''}</td>
              <td>{person.groups.join(', ')}</td>
              <td>{person.rights.join(', ')}</td>
              <td>{person.tokens}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
