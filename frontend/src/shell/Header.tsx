// The header: the pages, the language menu (stored on the user) and logout. A logout or a language choice
// whose request fails is said here, in the reader's language; the reader stays where they were.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { failureSentence } from '../api/failure';
import { useSession } from '../api/session';
import { LanguageMenu } from './LanguageMenu';
import { InboxBadge } from '../inbox/InboxBadge';

const PAGES = [
  ['/flows', 'ui_nav_flows'],
  ['/runs', 'ui_nav_runs'],
  ['/inbox', 'ui_nav_inbox'],
  ['/audit', 'ui_nav_audit'],
  ['/people', 'ui_nav_people'],
] as const;

export function Header({ user }: { user: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const setSession = useSession((s) => s.set);

  const [problem, setProblem] = useState<string | null>(null);

  async function logout() {
    setProblem(null);
    try {
      const ended = await api.DELETE('/api/session');
      // No content when it worked; a session the server no longer knows is as good as ended.
      if (!ended.response.ok && ended.response.status !== 401) unwrap(ended);
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
      <nav aria-label={t('ui_nav_label')}>
        <ul>
          {PAGES.map(([to, key]) => (
            <li key={to}>
              <NavLink to={to}>
                {t(key)}
                {to === '/inbox' && <InboxBadge />}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <LanguageMenu onProblem={setProblem} />
      <span className="user data">{user}</span>
      <button type="button" onClick={() => void logout()}>
        {t('ui_logout')}
      </button>
      {problem && (
        <p role="alert" className="header-problem">
          {problem}
        </p>
      )}
    </header>
  );
}
