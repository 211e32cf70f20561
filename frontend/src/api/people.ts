// People (admin): the users with their groups, rights and tokens, the tokens, the rights trail and the
// four-eyes policy; adding and removing users, granting and revoking rights, making and revoking tokens.
// Every shape is the API's own (schema.d.ts); the cache keys are here, and what a change invalidates.
import { infiniteQueryOptions, queryOptions, type QueryClient } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { operations } from './schema';

type Json<O extends keyof operations, S extends 200 | 201> = operations[O]['responses'] extends {
  [status in S]: { content: { 'application/json': infer A } };
}
  ? A
  : never;

export type Person = Json<'people', 200>['people'][number];
export type Token = Json<'list_tokens', 200>['tokens'][number];
export type TrailEntry = Json<'rights_trail', 200>['entries'][number];
export type NewUser = operations['create_user']['requestBody']['content']['application/json'];
export type SelfApproval =
  operations['set_self_approval']['requestBody']['content']['application/json']['value'];

export const peopleKeys = {
  people: ['people'] as const,
  tokens: ['tokens'] as const,
  trail: ['trail'] as const,
  policies: ['policies'] as const,
};

/** After any change to people: the list, the tokens and the trail are read again. */
export function invalidatePeople(queries: QueryClient): void {
  for (const key of [peopleKeys.people, peopleKeys.tokens, peopleKeys.trail])
    void queries.invalidateQueries({ queryKey: key });
}

/** A call answered 204 No Content: nothing to return, or the API's error thrown as `unwrap` throws it. */
function noContent(result: { error?: unknown; response: Response }): null {
  if (!result.response.ok) unwrap({ error: result.error ?? {}, response: result.response });
  return null;
}

export const peopleQuery = queryOptions({
  queryKey: peopleKeys.people,
  queryFn: async () => unwrap(await api.GET('/api/people')),
});

export const tokensQuery = queryOptions({
  queryKey: peopleKeys.tokens,
  queryFn: async () => unwrap(await api.GET('/api/tokens', { params: { query: { limit: 200 } } })),
});

/** The rights trail, newest first, a page at a time. */
export const trailQuery = infiniteQueryOptions({
  queryKey: peopleKeys.trail,
  initialPageParam: undefined as number | undefined,
  getNextPageParam: (last: { next: number | null }) => last.next ?? undefined,
  queryFn: async ({ pageParam }) =>
    unwrap(
      await api.GET('/api/rights-trail', {
        params: { query: { order: 'newest', limit: 100, ...(pageParam ? { before: pageParam } : {}) } },
      }),
    ),
});

export const policiesQuery = queryOptions({
  queryKey: peopleKeys.policies,
  queryFn: async () => unwrap(await api.GET('/api/policies')),
});

export async function setSelfApproval(value: SelfApproval) {
  return unwrap(await api.PUT('/api/policies/self_approval', { body: { value } }));
}

export async function addUser(body: NewUser) {
  return unwrap(await api.POST('/api/users', { body }));
}

export async function removeUser(name: string): Promise<null> {
  return noContent(await api.DELETE('/api/users/{name}', { params: { path: { name } } }));
}

/** Grants rights as the API writes them (`decide`, `decide:12`). */
export async function grantRights(name: string, rights: string[]) {
  return unwrap(await api.POST('/api/users/{name}/rights', { params: { path: { name } }, body: { rights } }));
}

export async function revokeRight(name: string, right: string) {
  return unwrap(await api.DELETE('/api/users/{name}/rights/{right}', { params: { path: { name, right } } }));
}

/** A new token for a user, with an optional lifetime in days; the answer shows it this once. */
export async function makeToken(user: string, days: number | null) {
  return unwrap(
    await api.POST('/api/tokens', { body: { user, ...(days === null ? {} : { expires_in_days: days }) } }),
  );
}

export async function revokeToken(tokenId: number): Promise<null> {
  return noContent(await api.DELETE('/api/tokens/{token_id}', { params: { path: { token_id: tokenId } } }));
}
