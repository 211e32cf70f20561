// On a phone the editor only reads, but a new flow (a template chosen there) can still be saved as it is,
// to be drawn on a larger screen later; else choosing a template on a phone would lead nowhere.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { useCreate } from './create';

export function PhoneSave({ findings, onCreated }: { findings: number; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const create = useCreate(onCreated);
  const [problem, setProblem] = useState<string | null>(null);

  async function save() {
    if (findings > 0) {
      setProblem(t('ui_save_refused', { count: findings }));
      return;
    }
    try {
      await create();
    } catch (failure) {
      setProblem(failureSentence(failure, t));
    }
  }

  return (
    <div className="row">
      <button type="button" className="primary" onClick={() => void save()}>
        {t('ui_toolbar_save')}
      </button>
      {problem && <p role="alert">{problem}</p>}
    </div>
  );
}
