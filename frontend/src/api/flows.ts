// Flows: the list, one flow and its versions, create, save, rename, the webhook's address; the server's
// checks of a draft (findings, the list view, a sample walk), the node types' schemas, the templates and
// a schedule's next times. The cache keys are here. The flow document is the editor's (flows/document.ts):
// the API declares it as an object, so it is typed here, in the one place that sends and reads it.
import { queryOptions } from '@tanstack/react-query';
import type { FlowDocument } from '../flows/document';
import { api, unwrap } from './client';
import type { paths } from './schema';

export type FlowSummary =
  paths['/api/flows']['get']['responses'][200]['content']['application/json']['flows'][number];
/** A finding of the server's checks: its reason code, where (a node, a wire), its sentence. */
export type Finding =
  paths['/api/flows/validate']['post']['responses'][200]['content']['application/json']['findings'][number];
export type WalkBody = paths['/api/flows/walk']['post']['requestBody']['content']['application/json'];
export type WalkResult = paths['/api/flows/walk']['post']['responses'][200]['content']['application/json'];

// A document goes out as the body the API declares (an object it checks against the flow format itself).
type Sent = Record<string, never>;
const sent = (doc: FlowDocument) => doc as unknown as Sent;
const read = (doc: unknown) => doc as FlowDocument;
const language = (locale: string) => ({ 'Accept-Language': locale.replace('_', '-') });

export const flowKeys = {
  list: ['flows'] as const,
  one: (flowId: number) => ['flow', flowId] as const,
  /** The trigger panel's own read of the flow (whether it has a webhook), apart from the editor's. */
  webhook: (flowId: number | null) => ['flow-webhook', flowId] as const,
  versions: (flowId: number) => ['versions', flowId] as const,
  templates: (locale: string) => ['flow-templates', locale] as const,
  findings: (locale: string, doc: FlowDocument) => ['findings', locale, doc] as const,
  listView: (doc: FlowDocument) => ['list-view', doc] as const,
  schema: (type: string) => ['schema', type] as const,
  fires: (cron: string, timezone: string, locale: string) => ['fires', cron, timezone, locale] as const,
};

export const flowsQuery = queryOptions({
  queryKey: flowKeys.list,
  queryFn: async () => unwrap(await api.GET('/api/flows')),
});

/** The open flow's query, shared by the editor and the boot (main.tsx), which starts it together with the
 * editor's code when the page is opened at a flow's address, instead of after both have loaded. */
export function flowQuery(flowId: number) {
  return queryOptions({
    queryKey: flowKeys.one(flowId),
    queryFn: async () =>
      unwrap(await api.GET('/api/flows/{flow_id}', { params: { path: { flow_id: flowId } } })),
    refetchOnWindowFocus: false,
    // Fetched at boot a moment before the editor mounts: not asked again then (a save refetches it).
    staleTime: 5_000,
  });
}

/** The newest version's document of a flow (its name and description as they are now). */
export function flowDocument(flow: { document?: unknown }): FlowDocument | undefined {
  return flow.document === undefined ? undefined : read(flow.document);
}

export async function fetchFlowDocument(flowId: number): Promise<FlowDocument> {
  const flow = unwrap(await api.GET('/api/flows/{flow_id}', { params: { path: { flow_id: flowId } } }));
  return read(flow.document);
}

export function webhookQuery(flowId: number | null) {
  return queryOptions({
    queryKey: flowKeys.webhook(flowId),
    queryFn: async () =>
      unwrap(await api.GET('/api/flows/{flow_id}', { params: { path: { flow_id: flowId ?? 0 } } })),
    enabled: flowId !== null,
  });
}

/** Makes the flow's webhook address anew (the old one stops working); its secret is shown once. */
export async function makeWebhook(flowId: number) {
  return unwrap(await api.POST('/api/flows/{flow_id}/webhook', { params: { path: { flow_id: flowId } } }));
}

/** Creates a flow from a document: its version 1. */
export async function createFlow(doc: FlowDocument) {
  return unwrap(await api.POST('/api/flows', { body: sent(doc) }));
}

/** Saves the document as the flow's next version; `base`, the version the edit started from, makes a
 * newer one saved meanwhile a 409 `flow_version_stale` with who and when (null: no such check). */
export async function saveFlow(flowId: number, doc: FlowDocument, base: number | null) {
  return unwrap(
    await api.PUT('/api/flows/{flow_id}', {
      params: { path: { flow_id: flowId }, query: base === null ? {} : { base } },
      body: sent(doc),
    }),
  );
}

/** A flow's name and description changed without a new version. */
export async function patchFlow(flowId: number, change: { name?: string; description?: string | null }) {
  return unwrap(
    await api.PATCH('/api/flows/{flow_id}', { params: { path: { flow_id: flowId } }, body: change }),
  );
}

export function versionsQuery(flowId: number) {
  return queryOptions({
    queryKey: flowKeys.versions(flowId),
    queryFn: async () =>
      unwrap(await api.GET('/api/flows/{flow_id}/versions', { params: { path: { flow_id: flowId } } })),
  });
}

/** One version's document as it was saved. */
export async function fetchVersionDocument(flowId: number, version: number): Promise<FlowDocument> {
  const found = unwrap(
    await api.GET('/api/flows/{flow_id}/versions/{version}', {
      params: { path: { flow_id: flowId, version } },
    }),
  );
  return read(found.document);
}

/** The example flows, with names and lines in the reader's language (keyed by it). */
export function templatesQuery(locale: string) {
  return queryOptions({
    queryKey: flowKeys.templates(locale),
    queryFn: async () => {
      const found = unwrap(await api.GET('/api/flow-templates', { headers: language(locale) }));
      return {
        ...found,
        templates: found.templates.map((template) => ({ ...template, document: read(template.document) })),
      };
    },
    staleTime: Infinity,
  });
}

/** The server's findings on a draft, in the reader's language. */
export async function validateFlow(doc: FlowDocument, locale: string) {
  return unwrap(await api.POST('/api/flows/validate', { body: sent(doc), headers: language(locale) }));
}

/** The draft as the list view's outline. */
export async function listView(doc: FlowDocument) {
  return unwrap(await api.POST('/api/flows/list-view', { body: sent(doc) }));
}

/** The server's pure walker run on a draft with sample input and the answers of its pauses. */
export async function walkFlow(
  doc: FlowDocument,
  rest: Omit<WalkBody, 'document'>,
  locale: string,
): Promise<WalkResult> {
  return unwrap(
    await api.POST('/api/flows/walk', { body: { document: sent(doc), ...rest }, headers: language(locale) }),
  );
}

/** A node type's JSON Schema (the config panel's form). */
export function nodeSchemaQuery(type: string) {
  return queryOptions({
    queryKey: flowKeys.schema(type),
    queryFn: async () => unwrap(await api.GET('/api/schemas/{name}', { params: { path: { name: type } } })),
    staleTime: Infinity,
  });
}

/** A schedule's next five times, in the reader's language. */
export function firesQuery(cron: string, timezone: string, locale: string) {
  return queryOptions({
    queryKey: flowKeys.fires(cron, timezone, locale),
    queryFn: async () =>
      unwrap(
        await api.GET('/api/schedules/next', {
          params: { query: { cron, timezone, count: 5 } },
          headers: language(locale),
        }),
      ),
    enabled: cron.trim() !== '',
    retry: false,
  });
}
