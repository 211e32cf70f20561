// The header: the pages the user's rights open, the language menu (stored on the user) and logout. A
// logout or a language choice whose request fails is said here, in the reader's language; the reader stays
// where they were. On a phone (app.css, "Phones") the pages, language and logout fold behind one Menu
// button. The header is on every page, so it holds the tab's one runs event stream (api/events.ts).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logOut } from '../api/me';
import { failureSentence } from '../api/failure';
import { useSession } from '../api/session';
import { LanguageMenu } from './LanguageMenu';
import { InboxBadge } from '../inbox/InboxBadge';
import { useLiveRuns } from '../api/events';
import { useRights, type Where } from '../runs/rights';

// Each page with the right that opens it (null: any user; flows and runs list what the user may read).
const PAGES: readonly (readonly [string, string, string | null, Where])[] = [
  ['/flows', 'ui_nav_flows', null, null],
  ['/runs', 'ui_nav_runs', null, null],
  ['/inbox', 'ui_nav_inbox', 'decide', 'some'],
  ['/audit', 'ui_nav_audit', 'audit', 'some'],
  ['/people', 'ui_nav_people', 'admin', null],
];

export function Header({ user }: { user: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const setSession = useSession((s) => s.set);

  const may = useRights();
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  useLiveRuns();

  async function logout() {
    setProblem(null);
    try {
      await logOut();
    } catch (failure) {
      setProblem(failureSentence(failure, t));
      return;
    }
    setSession(null, null);
    queries.clear();
    void navigate('/login');
  }

  return (
    <header className="header">
      <span className="brand">{t('ui_app_name')}</span>
      <button
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls="header-menu"
        onClick={() => setOpen(!open)}
      >
        {t('ui_nav_menu')}
      </button>
      <div id="header-menu" className={open ? 'header-menu open' : 'header-menu'}>
        <nav aria-label={t('ui_nav_label')}>
          <ul>
            {PAGES.filter(([, , right, where]) => right === null || may(right, where)).map(([to, key]) => (
              <li key={to}>
                <NavLink to={to} onClick={() => setOpen(false)}>
                  {t(key)}
                  {to === '/inbox' && <InboxBadge />}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <LanguageMenu onProblem={setProblem} />
        <span className="user" translate="no">
          {user}
        </span>
        <button type="button" onClick={() => void logout()}>
          {t('ui_logout')}
        </button>
      </div>
      {problem && (
        <p role="alert" className="header-problem">
          {problem}
        </p>
      )}
    </header>
  );
}
