// Putting a flow's saved document into the editor: when the flow is opened, when a newer version arrives
// and nothing would be lost (flows/arrival.ts), and when the author asks for the newest (`reopen`).
import type { QueryClient } from '@tanstack/react-query';
import { moveNodes, type FlowDocument } from './document';
import { useEditor } from './store';
import { flowDocument, flowQuery } from '../api/flows';
import { quickLayout } from './quickLayout';
import { layoutInWorker } from './layoutWorker';
import { afterPaint } from './afterPaint';

/** The document as the canvas shows it: one written by hand (no positions) with the quick layout. */
export function placed(doc: FlowDocument): FlowDocument {
  return doc.nodes.every((n) => n.position) ? doc : moveNodes(doc, quickLayout(doc));
}

/** Loads the document into the editor; the returned function cancels the layout still to come. */
export function openDocument(flowId: number, version: number, doc: FlowDocument): () => void {
  const shown = placed(doc);
  useEditor.getState().load(flowId, version, shown);
  if (shown === doc) return () => undefined;
  // A document written by hand opens with the quick layout at once, and dagre's (in a worker) replaces
  // it when ready unless the author has changed something by then.
  let current = true;
  const cancel = afterPaint(() => {
    layoutInWorker(doc)
      .then((laid) => current && useEditor.getState().relaid(shown, moveNodes(shown, laid)))
      .catch(() => undefined); // the quick layout stays, and Arrange is there
  });
  return () => {
    current = false;
    cancel();
  };
}

/** The author asked for the newest version (a restore, or their edits discarded): loaded whatever the
 * editor holds, even when the query's answer is the one it already had. */
export async function reopen(queries: QueryClient, flowId: number): Promise<void> {
  const flow = await queries.fetchQuery({ ...flowQuery(flowId), staleTime: 0 });
  const doc = flowDocument(flow);
  if (doc && useEditor.getState().flowId === flowId) openDocument(flowId, flow.version, doc);
}

/** A new flow (a template) into the editor, laid out as a saved one opens: the quick layout at once,
 * dagre's when it is ready, unless the author has changed something by then. */
export function startDocument(doc: FlowDocument): void {
  const shown = placed(doc);
  useEditor.getState().start(shown);
  if (shown === doc) return;
  layoutInWorker(doc)
    .then((laid) => useEditor.getState().relaid(shown, moveNodes(shown, laid)))
    .catch(() => undefined); // the quick layout stays, and Arrange is there
}
