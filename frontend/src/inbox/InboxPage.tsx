// The approvals inbox: the ones with the nearest deadline first (no deadline last). Keyboard: j / ↓ next,
// k / ↑ previous, a approve, r reject (each asks for confirmation), Escape steps back.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Approval } from '../runs/types';
import { ApprovalCard } from './ApprovalCard';
import type { Choice } from './Decision';
import { useInbox } from './useInbox';
import { failureSentence } from '../api/failure';

export function byDeadline(approvals: Approval[]): Approval[] {
  const key = (a: Approval) => (a.deadline_at ? new Date(a.deadline_at).getTime() : Number.POSITIVE_INFINITY);
  return [...approvals].sort((a, b) => key(a) - key(b) || a.id - b.id);
}

export function InboxPage() {
  const { t } = useTranslation();
  const inbox = useInbox();
  const [selected, setSelected] = useState(0);
  const [choice, setChoice] = useState<Choice | null>(null);
  const approvals = byDeadline(inbox.data?.approvals ?? []);
  const current = approvals[Math.min(selected, approvals.length - 1)];

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select')) return;
      const move = (by: number) => {
        setSelected((i) => Math.max(0, Math.min(approvals.length - 1, i + by)));
        setChoice(null);
      };
      if (event.key === 'j' || event.key === 'ArrowDown') move(1);
      else if (event.key === 'k' || event.key === 'ArrowUp') move(-1);
      else if (event.key === 'a') setChoice('approve');
      else if (event.key === 'r') setChoice('reject');
      else if (event.key === 'Escape') setChoice(null);
      else return;
      event.preventDefault();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [approvals.length]);

  return (
    <section className="page inbox">
      <h1>{t('ui_inbox_title')}</h1>
      <p className="hint">{t('ui_inbox_keys')}</p>
      {inbox.error && <p role="alert">{failureSentence(inbox.error, t)}</p>}
      {inbox.data && approvals.length === 0 && <p>{t('ui_inbox_empty')}</p>}
      <div className="inbox-layout">
        <ul className="inbox-list" aria-label={t('ui_inbox_title')}>
          {approvals.map((approval, index) => (
            <li key={approval.id} aria-current={approval === current ? 'true' : undefined}>
              <button
                type="button"
                onClick={() => {
                  setSelected(index);
                  setChoice(null);
                }}
              >
                {approval.title}
              </button>
            </li>
          ))}
        </ul>
        {current && <ApprovalCard key={current.id} approval={current} choice={choice} onChoose={setChoice} />}
      </div>
    </section>
  );
}
