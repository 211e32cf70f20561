// One flow in the editor.
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';

export function EditorPage() {
  const { t } = useTranslation();
  const { flowId } = useParams();
  return (
    <section className="page">
      <h1>{t('ui_editor_title', { id: flowId })}</h1>
    </section>
  );
}
