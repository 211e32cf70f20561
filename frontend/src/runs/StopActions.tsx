// A stopped run's buttons: resume it where it stopped (on its version, or on a newer one of its flow), or
// end it as failed. Shown only to holders of the run right on the flow; the server refuses others anyway,
// and a refusal (a newer version missing nodes the run needs) is shown with the server's sentence.
// Preview asks what resuming on the version chosen would send and where it would stop (ResumePreview),
// nothing sent; its own Resume resumes on exactly the version previewed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { endRun, previewResume, resumeRun, runKeys } from '../api/runs';
import { ResumePreview } from './ResumePreview';

export function StopActions({ runId, version }: { runId: number; version: number }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [target, setTarget] = useState(version);
  const settled = () => queries.invalidateQueries({ queryKey: runKeys.one(runId) });
  const resume = useMutation({
    mutationFn: (on: number | null) => resumeRun(runId, on),
    onSettled: settled,
  });
  const preview = useMutation({
    mutationFn: (on: number) => previewResume(runId, on === version ? null : on),
  });
  const end = useMutation({
    mutationFn: () => endRun(runId),
    onSettled: settled,
  });
  const error = resume.error ?? end.error ?? preview.error;
  const shown = preview.data;

  return (
    <div className="stop-actions" role="group" aria-label={t('ui_run_stopped_actions')}>
      <p>{t('ui_run_stopped_hint')}</p>
      <button type="button" onClick={() => resume.mutate(null)}>
        {t('ui_run_resume')}
      </button>{' '}
      <label>
        {t('ui_run_resume_version')}{' '}
        <input
          type="number"
          min={version}
          value={target}
          onChange={(event) => setTarget(Number(event.target.value))}
        />
      </label>{' '}
      <button type="button" onClick={() => resume.mutate(target)}>
        {t('ui_run_resume_on_version')}
      </button>{' '}
      <button type="button" onClick={() => preview.mutate(target)}>
        {t('ui_run_preview')}
      </button>{' '}
      <button
        type="button"
        onClick={() => {
          if (window.confirm(t('ui_run_end_confirm'))) end.mutate();
        }}
      >
        {t('ui_run_end')}
      </button>
      {shown && (
        <ResumePreview
          preview={shown}
          resuming={resume.isPending}
          onResume={() => resume.mutate(shown.version === version ? null : shown.version)}
        />
      )}
      {error && <p role="alert">{failureSentence(error, t)}</p>}
    </div>
  );
}
