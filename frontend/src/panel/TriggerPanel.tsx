// Below a trigger's form: for a webhook, its address (a new one made on demand, shown once, with a copy
// button: the server keeps only a hash of its secret); for a schedule, the next five fire times in the
// reader's own time zone, named.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { firesQuery, makeWebhook, webhookQuery } from '../api/flows';
import { failureSentence } from '../api/failure';
import type { FlowNode } from '../flows/document';
import { useEditor } from '../flows/store';
import { useDebounced } from '../flows/findings';
import { zoneName } from '../i18n/format';
import { readerTimeZone } from '../i18n/i18n';

export function TriggerPanel({ node, readOnly }: { node: FlowNode; readOnly: boolean }) {
  if (node.config.kind === 'webhook') return <WebhookAddress readOnly={readOnly} />;
  if (node.config.kind === 'schedule')
    return (
      <NextFires cron={String(node.config.cron ?? '')} timezone={String(node.config.timezone ?? 'UTC')} />
    );
  return null;
}

function WebhookAddress({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const flowId = useEditor((s) => s.flowId);
  // A query of its own, not the editor's ['flow', id]: the editor loads the document again whenever that
  // one's data changes, and a refetch that came back after the address was made (webhook: true now) cleared
  // the selection, this panel and the address shown once with it.
  const flow = useQuery(webhookQuery(flowId));
  const [address, setAddress] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const has = flow.data?.webhook === true;

  async function renew() {
    if (has && !window.confirm(t('ui_webhook_renew_confirm'))) return;
    try {
      const made = await makeWebhook(flowId ?? 0);
      setAddress(`${window.location.origin}${made.path}`);
      setSaid(null);
      void flow.refetch(); // it has an address now: making another asks first
    } catch (failure) {
      setSaid(failureSentence(failure, t));
    }
  }

  async function copy() {
    if (!address) return;
    try {
      await navigator.clipboard.writeText(address);
      setSaid(t('ui_webhook_copied'));
    } catch {
      setSaid(t('ui_webhook_copy_failed'));
    }
  }

  return (
    <section className="trigger-panel" aria-labelledby="webhook-title">
      <h3 id="webhook-title">{t('ui_webhook_title')}</h3>
      {address ? (
        <>
          <p>{t('ui_webhook_shown_once')}</p>
          <input translate="no" readOnly value={address} aria-label={t('ui_webhook_address')} />
          <button type="button" onClick={() => void copy()}>
            {t('ui_webhook_copy')}
          </button>
        </>
      ) : (
        <p>{t(has ? 'ui_webhook_set' : 'ui_webhook_none')}</p>
      )}
      <button type="button" onClick={() => void renew()} disabled={readOnly || flowId === null}>
        {t(has || address ? 'ui_webhook_renew' : 'ui_webhook_create')}
      </button>
      <p aria-live="polite" className="trigger-said">
        {said}
      </p>
    </section>
  );
}

function NextFires({ cron, timezone }: { cron: string; timezone: string }) {
  const { t, i18n } = useTranslation();
  const asked = useDebounced({ cron, timezone }, 300);
  const fires = useQuery(firesQuery(asked.cron, asked.timezone, i18n.language));
  // The user's own zone (their setting, /api/me), named as the heading says, not the browser's.
  const zone = readerTimeZone();
  const format = new Intl.DateTimeFormat(i18n.language.replace('_', '-'), {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: zone,
  });
  return (
    <section className="trigger-panel" aria-labelledby="fires-title">
      <h3 id="fires-title">{t('ui_schedule_next_title', { zone: zoneName(zone) })}</h3>
      {fires.error && <p role="alert">{failureSentence(fires.error, t)}</p>}
      {fires.data && (
        <ol className="next-fires">
          {fires.data.fires.map((fire) => (
            <li key={fire}>
              <time dateTime={fire} translate="no">
                {format.format(new Date(fire))}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
