// Every page but the login: it asks /api/me who is logged in (the cookie may outlive the tab), switches
// to the user's language, sends anyone without a session to /login, and gives a user who has no time
// zone yet the browser's (docs/i18n.md, "Time zones").
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { failureSentence } from '../api/failure';
import { meQuery, storeTimeZone } from '../api/me';
import { useSession } from '../api/session';
import { isReadable, setReaderZone, switchLocale } from '../i18n/i18n';
import { Header } from './Header';

export function Layout() {
  const { t } = useTranslation();
  const location = useLocation();
  const me = useQuery(meQuery);
  const setSession = useSession((s) => s.set);

  useEffect(() => {
    if (!me.data) return;
    setSession(me.data.name, me.data.csrf_token ?? null);
    if (isReadable(me.data.locale)) void switchLocale(me.data.locale);
    setReaderZone(me.data.time_zone);
    if (me.data.time_zone === null) {
      const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      // Best effort: a zone that cannot be stored now (the network gone) is stored on a later load, as it
      // stays unset; an unhandled rejection here was an uncaught error on the page.
      storeTimeZone(zone);
    }
  }, [me.data, setSession]);

  if (me.error instanceof ApiError && me.error.status === 401) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  if (me.error) return <p role="alert">{failureSentence(me.error, t)}</p>;
  if (!me.data) return <p aria-busy="true">{t('ui_loading')}</p>;
  return (
    <div className="app">
      <Header user={me.data.name} />
      <main id="main">
        <Outlet />
      </main>
    </div>
  );
}
