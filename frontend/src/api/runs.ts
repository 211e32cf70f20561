// Runs: the list, one run with its journal a page at a time, and what a page does to a run (start, cancel,
// resume, preview a resume, end). Every shape is the API's own (schema.d.ts); the cache keys are here.
import { infiniteQueryOptions } from '@tanstack/react-query';
import { api, unwrap } from './client';
import type { paths } from './schema';

type Answer<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer A } } };
}
  ? A
  : never;

/** A page of the run page: the run, a page of its journal and what its page shows beside it. */
export type RunPageData = Answer<'/api/runs/{run_id}', 'get'>;
/** A run as its own page shows it (with its input and its error's sentence). */
export type Run = RunPageData['run'];
/** A run as the runs list shows it. */
export type RunSummary = Answer<'/api/runs', 'get'>['runs'][number];
export type RunDecision = NonNullable<Run['decision']>;
export type JournalLine = RunPageData['journal'][number];
export type Wait = NonNullable<RunPageData['wait']>;
export type RunApproval = RunPageData['approvals'][number];
export type Effect = RunPageData['effects'][number];
/** The run's pinned version, as saved. */
export type PinnedDocument = NonNullable<RunPageData['flow']>['document'];
export type ResumePreviewData =
  paths['/api/runs/{run_id}/resume/preview']['post']['responses'][200]['content']['application/json'];
/** The runs list's filters (its page's cursor is the query's own). */
export type RunsFilter = Omit<NonNullable<paths['/api/runs']['get']['parameters']['query']>, 'before'>;

export const runKeys = {
  /** Every runs list, whatever its filter. */
  lists: ['runs'] as const,
  list: (filter: RunsFilter) => ['runs', filter] as const,
  one: (runId: number) => ['run', runId] as const,
  /** Every run's own page, whichever run. */
  every: ['run'] as const,
};

/** The runs the filter finds, newest first, a page at a time (the API's keyset cursor). */
export function runsQuery(filter: RunsFilter) {
  return infiniteQueryOptions({
    queryKey: runKeys.list(filter),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: { next: number | null }) => last.next ?? undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(await api.GET('/api/runs', { params: { query: { ...filter, before: pageParam } } })),
  });
}

/** The run page: the API's first 100 journal lines, then each next page after the last line shown; the
 * run and all beside it come from the first page. */
export function runQuery(runId: number) {
  return infiniteQueryOptions({
    queryKey: runKeys.one(runId),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: RunPageData) => last.next ?? undefined,
    queryFn: async ({ pageParam }) =>
      unwrap(
        await api.GET('/api/runs/{run_id}', {
          params: { path: { run_id: runId }, query: { after: pageParam } },
        }),
      ),
  });
}

/** Starts a run of the flow's newest version with this input; the answer names the run. */
export async function startRun(flowId: number, input: unknown) {
  return unwrap(
    await api.POST('/api/flows/{flow_id}/runs', { params: { path: { flow_id: flowId } }, body: { input } }),
  );
}

export async function cancelRun(runId: number) {
  return unwrap(await api.POST('/api/runs/{run_id}/cancel', { params: { path: { run_id: runId } } }));
}

/** Resumes a stopped run where it stopped: on its own version (null) or on a newer one of its flow. */
export async function resumeRun(runId: number, version: number | null) {
  return unwrap(
    await api.POST('/api/runs/{run_id}/resume', {
      params: { path: { run_id: runId } },
      body: version === null ? {} : { version },
    }),
  );
}

/** What resuming on `version` (null: the run's own) would send and where it would stop; nothing sent. */
export async function previewResume(runId: number, version: number | null): Promise<ResumePreviewData> {
  return unwrap(
    await api.POST('/api/runs/{run_id}/resume/preview', {
      params: { path: { run_id: runId } },
      body: version === null ? {} : { version },
    }),
  );
}

/** Ends a stopped run as failed. */
export async function endRun(runId: number) {
  return unwrap(await api.POST('/api/runs/{run_id}/end', { params: { path: { run_id: runId } } }));
}
