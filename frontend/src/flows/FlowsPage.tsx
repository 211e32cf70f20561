// The flows page: every flow the user may read, newest first.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';

export function FlowsPage() {
  const { t } = useTranslation();
  const flows = useQuery({ queryKey: ['flows'], queryFn: async () => unwrap(await api.GET('/api/flows')) });

  return (
    <section className="page">
      <h1>{t('ui_flows_title')}</h1>
      {flows.error && <p role="alert">{flows.error.message}</p>}
      <table>
        <thead>
          <tr>
            <th scope="col">{t('ui_flows_name')}</th>
            <th scope="col">{t('ui_flows_version')}</th>
          </tr>
        </thead>
        <tbody>
          {flows.data?.flows.map((flow) => (
            <tr key={flow.id}>
              <td>
                <Link to={`/flows/${flow.id}`}>{flow.name}</Link>
              </td>
              <td>{flow.version}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
