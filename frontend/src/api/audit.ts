// The audit trail: decisions found by a filter, a page at a time; their exports, the chained trail's
// export and its verification. Every shape is the API's own (schema.d.ts); the cache keys are here.
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { operations } from './schema';

/** The decisions' filter (its page's limit and cursor are the query's own). */
export type AuditFilter = Omit<NonNullable<operations['audit']['parameters']['query']>, 'limit' | 'cursor'>;
export type Verdict = operations['audit_verify']['responses'][200]['content']['application/json'];

export const AUDIT_PAGE = 100;

export const auditKeys = {
  decisions: (filter: AuditFilter) => ['audit', filter] as const,
};

export function decisionsQuery(filter: AuditFilter) {
  return infiniteQueryOptions({
    queryKey: auditKeys.decisions(filter),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: { next: string | null }) => last.next ?? undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.GET('/api/audit', {
          params: { query: { ...filter, limit: AUDIT_PAGE, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
  });
}

/** The server re-reads every record of the chains (of one flow, when given) and says whether anything
 * was changed, removed or inserted. */
export async function verifyChain(flow: number | null): Promise<Verdict> {
  return unwrap(await api.GET('/api/audit/verify', { params: { query: flow === null ? {} : { flow } } }));
}

/** The address of every decision the filter finds, as a CSV or JSON file in the reader's language. */
export function decisionsExportHref(filter: Record<string, string>, format: 'csv' | 'json'): string {
  return `/api/audit/export?${new URLSearchParams({ ...filter, format }).toString()}`;
}

/** The address of the chained trail with its hashes and heads (of one flow, when given), to verify offline. */
export function chainExportHref(flow: string): string {
  return `/api/audit/chain${flow ? `?flow=${encodeURIComponent(flow)}` : ''}`;
}
