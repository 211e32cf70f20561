// The approvals inbox: the ones with the nearest deadline first (no deadline last). Keyboard: j / ↓ next,
// k / ↑ previous, a approve, r reject (each asks for confirmation, on the card shown), Escape steps back.
// The card shown is chosen by approval id (selection.ts): the runs' event stream refreshes the list, and
// a refresh adds arrivals to the list and announces them, but never moves or replaces the card being read.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Approval } from '../api/approvals';
import { failureSentence } from '../api/failure';
import { ApprovalCard } from './ApprovalCard';
import type { Decided } from './Decision';
import { arrivals, follow, NOTHING, step, type Selection } from './selection';
import { useInbox } from '../api/approvals';
import './inbox.css';

export function byDeadline(approvals: Approval[]): Approval[] {
  const key = (a: Approval) => (a.deadline_at ? new Date(a.deadline_at).getTime() : Number.POSITIVE_INFINITY);
  return [...approvals].sort((a, b) => key(a) - key(b) || a.id - b.id);
}

const RESULT_KEYS: Record<string, string> = {
  'approve settled': 'ui_inbox_result_approved',
  'reject settled': 'ui_inbox_result_rejected',
  'approve vote': 'ui_inbox_result_vote_approve',
  'reject vote': 'ui_inbox_result_vote_reject',
};

const NONE: Approval[] = [];

interface Seen {
  list: Approval[] | null;
  known: ReadonlySet<number>;
}

export function InboxPage() {
  const { t } = useTranslation();
  const inbox = useInbox();
  const [selection, setSelection] = useState<Selection>(NOTHING);
  // Decided on this page: out of the list at once, before the refetch says so.
  const [decidedHere, setDecidedHere] = useState<ReadonlySet<number>>(new Set());
  // On their way: the runs' event stream may refresh the list before the decision's answer comes back,
  // and a card the person is deciding that leaves the list is theirs, not "decided elsewhere".
  const [sendingHere, setSendingHere] = useState<ReadonlySet<number>>(new Set());
  const takenHere = useMemo(() => new Set([...decidedHere, ...sendingHere]), [decidedHere, sendingHere]);
  // What the person decided last: it stays on the page until the next decision or until they leave.
  const [result, setResult] = useState<Decided | null>(null);
  const [arrived, setArrived] = useState(0);
  const data = inbox.data;
  const approvals = useMemo(
    () => (data ? byDeadline(data.approvals).filter((a) => !decidedHere.has(a.id)) : null),
    [data, decidedHere],
  );

  // Each new list is compared with the last one while rendering (no frame shows a stale choice).
  const [seen, setSeen] = useState<Seen>({ list: null, known: new Set() });
  if (approvals !== seen.list) {
    const before = seen.list ?? [];
    const after = approvals ?? [];
    const next = follow(selection, before, after, takenHere);
    if (next !== selection) setSelection(next);
    const count = seen.list === null ? 0 : arrivals(seen.known, after);
    if (count > 0) setArrived((n) => n + count);
    setSeen({ list: approvals, known: new Set([...seen.known, ...after.map((a) => a.id)]) });
  }

  const list = approvals ?? NONE;
  const current = list.find((a) => a.id === selection.id);
  function show(id: number | null) {
    setSelection({ id, gone: null });
    setArrived(0);
  }

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      const target = event.target as HTMLElement;
      if (target.closest('input, textarea, select') || event.ctrlKey || event.metaKey || event.altKey) return;
      let by: number;
      if (event.key === 'j' || event.key === 'ArrowDown') by = 1;
      else if (event.key === 'k' || event.key === 'ArrowUp') by = -1;
      else return;
      event.preventDefault();
      setSelection((now) => ({ id: step(list, now.id, by), gone: null }));
      setArrived(0);
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [list]);

  function decided(done: Decided) {
    setResult(done);
    setDecidedHere((ids) => new Set([...ids, done.id]));
  }

  function sending(id: number, on: boolean) {
    setSendingHere((ids) => (on ? new Set([...ids, id]) : new Set([...ids].filter((one) => one !== id))));
  }

  return (
    <section className="page inbox">
      <h1>{t('ui_inbox_title')}</h1>
      <p className="hint">{t('ui_inbox_keys')}</p>
      {/* Live regions stay in the page, so what changes in them is announced; their row keeps its height,
          so an announcement never pushes the open card down under the reader's pointer. */}
      <div className="inbox-notices">
        <p role="status" className="inbox-result" data-testid="inbox-result">
          {result &&
            t(RESULT_KEYS[`${result.choice} ${result.settled ? 'settled' : 'vote'}`] ?? '', {
              title: result.title,
            })}
        </p>
        <p role="status" className="inbox-arrivals" data-testid="inbox-arrivals">
          {arrived > 0 && t('ui_inbox_arrived', { count: arrived })}
        </p>
      </div>
      {inbox.error && <p role="alert">{failureSentence(inbox.error, t)}</p>}
      {approvals && list.length === 0 && !selection.gone && <p>{t('ui_inbox_empty')}</p>}
      <div className="inbox-layout">
        <ul className="inbox-list" aria-label={t('ui_inbox_title')}>
          {list.map((approval) => (
            <li
              key={approval.id}
              data-approval={approval.id}
              aria-current={approval.id === current?.id ? 'true' : undefined}
            >
              <button type="button" onClick={() => show(approval.id)} translate="no">
                {approval.title}
              </button>
            </li>
          ))}
        </ul>
        {selection.gone && (
          <p className="inbox-gone" role="alert" data-testid="inbox-gone">
            {t('ui_inbox_gone', { title: selection.gone.title })}
          </p>
        )}
        {current && (
          // A new card (and a new Decision in it) per approval: nothing armed or typed carries over.
          <ApprovalCard key={current.id} approval={current} keys onDecided={decided} onSending={sending} />
        )}
      </div>
    </section>
  );
}
