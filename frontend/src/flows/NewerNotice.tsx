// Above the canvas while the flow has a newer version than the one being edited (saved elsewhere, and
// fetched while the author had unsaved edits, which were kept): what a save will do, and the way out.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { reopen } from './open';

export function NewerNotice({ flowId, version }: { flowId: number; version: number }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [failed, setFailed] = useState<string | null>(null);

  // The newest could not be fetched: the edits stay, and the notice says why nothing changed.
  function openNewest() {
    setFailed(null);
    reopen(queries, flowId).catch((failure: unknown) => setFailed(failureSentence(failure, t)));
  }

  return (
    <p role="status" className="newer-notice">
      {t('ui_editor_newer_saved', { version })}{' '}
      <button type="button" onClick={openNewest}>
        {t('ui_save_load_theirs')}
      </button>
      {failed && <span role="alert"> {failed}</span>}
    </p>
  );
}
