// What resuming a stopped run would do, shown before it is done: each action it would reach (the node's
// label, its kind, where it goes as the author wrote it, its effect key, whether it would be sent) and
// where it would stop, then the real Resume. Nothing is sent for the preview; an action it lists as sent
// is assumed to succeed with an empty output (the page says so). A destination is the flow's template, as
// written: a secret in it stays `{{secrets.NAME}}`.
import { useTranslation } from 'react-i18next';
import type { ResumePreviewData as Preview } from '../api/runs';

export function ResumePreview({
  preview,
  onResume,
  resuming,
}: {
  preview: Preview;
  onResume: () => void;
  resuming: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section className="resume-preview" aria-labelledby="resume-preview-title">
      <h3 id="resume-preview-title">{t('ui_run_preview_title', { version: preview.version })}</h3>
      <p>{t('ui_run_preview_assumed')}</p>
      {preview.actions.length === 0 ? (
        <p>{t('ui_run_preview_no_actions')}</p>
      ) : (
        <table className="effects preview-actions">
          <thead>
            <tr>
              <th scope="col">{t('ui_run_node')}</th>
              <th scope="col">{t('ui_run_effect_type')}</th>
              <th scope="col">{t('ui_run_preview_destination')}</th>
              <th scope="col">{t('ui_run_effect_key')}</th>
              <th scope="col">{t('ui_run_preview_what')}</th>
            </tr>
          </thead>
          <tbody>
            {preview.actions.map((action) => (
              <tr key={action.visit} data-node={action.node} data-sent={String(action.sent)}>
                <td data-label={t('ui_run_node')}>{action.label ?? action.node}</td>
                <td data-label={t('ui_run_effect_type')}>{t(`node_type_${action.type}`)}</td>
                <td data-label={t('ui_run_preview_destination')}>
                  <code>{action.destination ?? ''}</code>
                </td>
                <td data-label={t('ui_run_effect_key')}>
                  {action.key ? <code>{action.key}</code> : t('ui_run_preview_new_key')}
                </td>
                <td data-label={t('ui_run_preview_what')}>
                  {action.sent ? t('ui_run_preview_sent') : t('ui_run_preview_kept')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="preview-stop" data-stop={preview.status}>
        {preview.status === 'succeeded' && t('ui_run_preview_succeeds')}
        {preview.status === 'failed' &&
          t('ui_run_preview_fails', {
            node: preview.node_label ?? preview.node ?? '',
            reason: preview.error_message ?? '',
          })}
        {preview.status === 'waiting' &&
          preview.pending
            .map((pause) =>
              t('ui_run_preview_waits', {
                node: pause.label ?? pause.node,
                type: t(`node_type_${pause.type}`),
              }),
            )
            .join(' ')}
      </p>
      <button type="button" disabled={resuming} onClick={onResume}>
        {t('ui_run_preview_resume', { version: preview.version })}
      </button>
    </section>
  );
}
