// The session and the signed-in user: log in and out, who is logged in (one query, shared by the boot,
// which asks at once, the layout and the rights), their language and time zone; and the catalogs.
import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { paths } from './schema';

/** A grant of the signed-in user: a right everywhere (flow null) or on one flow. */
export type Grant =
  paths['/api/me']['get']['responses'][200]['content']['application/json']['rights'][number];
type MeChange = paths['/api/me']['put']['requestBody']['content']['application/json'];

export const meKeys = { me: ['me'] as const };

export const meQuery = queryOptions({
  queryKey: meKeys.me,
  queryFn: async () => unwrap(await api.GET('/api/me')),
});

/** Sets the session cookie; the answer names the user and the CSRF token their writes echo. */
export async function logIn(name: string, password: string) {
  return unwrap(await api.POST('/api/session', { body: { name, password } }));
}

/** Ends the session. No content when it worked; a session the server no longer knows is as good as ended. */
export async function logOut(): Promise<void> {
  const ended = await api.DELETE('/api/session');
  if (!ended.response.ok && ended.response.status !== 401) unwrap(ended);
}

/** Stores the user's language (the API's messages follow it). */
export async function storeLocale(locale: NonNullable<MeChange['locale']>) {
  return unwrap(await api.PUT('/api/me', { body: { locale } }));
}

/** Stores the user's time zone, best effort: a failure is dropped (it stays unset, so a later load asks
 * again), never an unhandled rejection on the page. */
export function storeTimeZone(zone: string): void {
  api.PUT('/api/me', { body: { time_zone: zone } }).catch(() => undefined);
}

/** A locale's catalog (no login needed: the login page is translated too). */
export async function fetchCatalog(locale: string): Promise<Record<string, string>> {
  const response = await fetch(`/api/i18n/${locale}`, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`catalog ${locale}: ${response.status}`);
  return (await response.json()) as Record<string, string>;
}
