// Above the canvas while the flow has a newer version than the one being edited (saved elsewhere, and
// fetched while the author had unsaved edits, which were kept): what a save will do, and the way out.
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { reopen } from './open';

export function NewerNotice({ flowId, version }: { flowId: number; version: number }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  return (
    <p role="status" className="newer-notice">
      {t('ui_editor_newer_saved', { version })}{' '}
      <button type="button" onClick={() => void reopen(queries, flowId)}>
        {t('ui_save_load_theirs')}
      </button>
    </p>
  );
}
