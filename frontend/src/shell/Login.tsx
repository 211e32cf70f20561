// The login page: POST /api/session sets the session cookie and answers the CSRF token writes echo.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { logIn, meKeys } from '../api/me';
import { failureSentence } from '../api/failure';
import { useSession } from '../api/session';
import { LanguageMenu } from './LanguageMenu';

export function Login() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queries = useQueryClient();
  const setSession = useSession((s) => s.set);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const session = await logIn(name, password);
      setSession(session.user, session.csrf_token);
      await queries.invalidateQueries({ queryKey: meKeys.me });
      const from = (location.state as { from?: string } | null)?.from;
      void navigate(from && from !== '/login' ? from : '/flows', { replace: true });
    } catch (failure) {
      setError(failureSentence(failure, t));
    }
  }

  return (
    <main className="login" id="main">
      <h1>{t('ui_app_name')}</h1>
      <form onSubmit={(e) => void submit(e)} aria-labelledby="login-title">
        <h2 id="login-title">{t('ui_login_title')}</h2>
        <label>
          {t('ui_login_name')}
          <input
            name="name"
            autoComplete="username"
            required
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          {t('ui_login_password')}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit">{t('ui_login_submit')}</button>
      </form>
      <LanguageMenu store={false} />
    </main>
  );
}
