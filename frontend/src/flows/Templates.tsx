// The flows page's templates: the example flows (GET /api/flow-templates), each with its name and one line
// in the reader's language. Choosing one opens it in the editor as a new flow, named after the template;
// nothing is saved until Save.
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { templatesQuery } from '../api/flows';
import { startDocument } from './open';
import './dialogs.css';

export function Templates() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const language = i18n.language;
  // Keyed by the language: switching it asks again, for names and lines in the new one.
  const templates = useQuery(templatesQuery(language));

  return (
    <section className="templates" aria-labelledby="templates-title">
      <h2 id="templates-title">{t('ui_templates_title')}</h2>
      {templates.error && <p role="alert">{failureSentence(templates.error, t)}</p>}
      <ul>
        {templates.data?.templates.map((template) => (
          <li key={template.id}>
            <h3>{template.name}</h3>
            <p>{template.description}</p>
            <button
              type="button"
              aria-label={t('ui_templates_use_label', { name: template.name })}
              onClick={() => {
                startDocument(template.document);
                void navigate('/flows/new');
              }}
            >
              {t('ui_templates_use')}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
