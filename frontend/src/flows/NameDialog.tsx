// Naming a flow: a new one (New flow asks for its name and saves nothing yet) or a rename, with its
// description, which makes no new version (PATCH /api/flows/{id}). The name follows the flow format's
// rule (1 to 200 characters, not only spaces), said before anything is sent.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { Modal } from './Modal';

export const NAME_LIMIT = 200;

/** Why a name cannot be taken, as a catalog key and its placeholders, or null. */
export function nameProblem(name: string): { key: string; params: Record<string, number> } | null {
  if (!name.trim()) return { key: 'ui_name_blank', params: {} };
  if (name.length > NAME_LIMIT)
    return { key: 'ui_name_too_long', params: { count: NAME_LIMIT, limit: NAME_LIMIT } };
  return null;
}

interface Props {
  /** The dialog's title and its confirming button, as catalog keys. */
  title: string;
  confirm: string;
  name: string;
  /** The description to edit beside the name; undefined: the dialog asks for the name only. */
  description?: string;
  onDone: (name: string, description: string | null) => Promise<void>;
  onClose: () => void;
}

export function NameDialog({ title, confirm, name: given, description: about, onDone, onClose }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(given);
  const [description, setDescription] = useState(about ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const wrong = nameProblem(name);
    if (wrong) {
      setProblem(t(wrong.key, wrong.params));
      return;
    }
    setBusy(true);
    try {
      await onDone(name.trim(), description.trim() || null);
    } catch (failure) {
      setProblem(failureSentence(failure, t));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal titleId="name-title" onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <h2 id="name-title">{t(title)}</h2>
        <label className="field">
          {t('ui_name_label')}
          <input value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </label>
        {about !== undefined && (
          <label className="field">
            {t('ui_name_description')}
            <textarea rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
          </label>
        )}
        {problem && <p role="alert">{problem}</p>}
        <div className="row">
          <button type="submit" className="primary" disabled={busy}>
            {t(confirm)}
          </button>
          <button type="button" onClick={onClose}>
            {t('ui_dialog_cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
