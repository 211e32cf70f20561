// The rights trail, newest first, a page of 100 at a time: who changed which right, user or token, and
// when. Reading it takes the audit right (auditors read what admins do); an admin without it is told so.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { trailQuery, type TrailEntry } from '../api/people';
import { failureSentence } from '../api/failure';
import { Moment } from '../i18n/Moment';
import { Actor } from './Actor';
import { useRights } from '../runs/rights';
import { CHANGE_KEYS, POLICY_SET_KEYS, rightLabel } from './people';

export function Trail({ flowNames }: { flowNames: Map<number, string> }) {
  const { t } = useTranslation();
  const may = useRights();
  const auditor = may('audit');
  const trail = useInfiniteQuery({ ...trailQuery, enabled: auditor });
  const change = (entry: TrailEntry): string =>
    entry.change === 'policy_set'
      ? t(POLICY_SET_KEYS[entry.value ?? ''] ?? 'ui_people_change_policy_set')
      : t(CHANGE_KEYS[entry.change] ?? entry.change);
  const what = (entry: TrailEntry): string => {
    if (entry.change === 'policy_set') return ''; // the sentence says it all; `right` is the policy's name
    if (entry.delegate) return entry.delegate; // "Delegated deciding to" / "Delegation ended:" the delegate
    // Only the right to use a server names a server.
    if (entry.server) return t('ui_people_right_server', { server: entry.server });
    if (entry.right)
      return rightLabel(t, entry.flow_id ? `${entry.right}:${entry.flow_id}` : entry.right, flowNames);
    if (entry.token_id !== null) return t('ui_people_trail_token', { id: entry.token_id });
    return '';
  };
  return (
    <section className="trail" aria-labelledby="trail-title">
      <h2 id="trail-title">{t('ui_people_trail')}</h2>
      {!auditor ? (
        <p className="hint">{t('ui_people_trail_audit_only')}</p>
      ) : (
        <>
          {trail.error && <p role="alert">{failureSentence(trail.error, t)}</p>}
          <table className="trail-list">
            <thead>
              <tr>
                <th scope="col">{t('ui_people_trail_at')}</th>
                <th scope="col">{t('ui_people_trail_actor')}</th>
                <th scope="col">{t('ui_people_trail_change')}</th>
                <th scope="col">{t('ui_people_name')}</th>
                <th scope="col">{t('ui_people_trail_what')}</th>
              </tr>
            </thead>
            <tbody>
              {trail.data?.pages
                .flatMap((page) => page.entries)
                .map((entry) => (
                  <tr key={entry.id} data-trail={entry.id}>
                    <td>
                      <Moment iso={entry.at} />
                    </td>
                    <td>
                      <Actor name={entry.actor} />
                    </td>
                    <td>{change(entry)}</td>
                    <td translate="no">{entry.user}</td>
                    <td>{what(entry)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
          {trail.hasNextPage && (
            <button
              type="button"
              onClick={() => void trail.fetchNextPage()}
              disabled={trail.isFetchingNextPage}
            >
              {t('ui_people_trail_older')}
            </button>
          )}
        </>
      )}
    </section>
  );
}
