// Live findings: the document is validated by the server (POST /api/flows/validate) a moment after the
// last edit, in the author's language; the same rules as a save, so nothing is guessed here.
import { useEffect, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { flowKeys, validateFlow, type Finding } from '../api/flows';
import type { FlowDocument } from './document';

export const FINDINGS_DELAY_MS = 150;

export type { Finding };

export function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setCurrent(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/** `value` once it has stopped changing for `ms`; but a change after `ms` of quiet passes at once (on
 * the next task), so a single edit (a node added, a wire drawn) is checked without waiting, while
 * typing still sends one check at its start and one per pause. */
export function useSettled<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  const lastChange = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    const now = performance.now();
    const quiet = now - lastChange.current >= ms;
    lastChange.current = now;
    const timer = window.setTimeout(() => setCurrent(value), quiet ? 0 : ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return current;
}

// Query keys hash a document by identity (documents are never changed in place, store.ts), not by
// serialising all of it on every render of the editor, as react-query's default hash would.
const documentIds = new WeakMap<object, number>();
let lastDocumentId = 0;
function documentId(doc: object): number {
  let id = documentIds.get(doc);
  if (id === undefined) {
    id = ++lastDocumentId;
    documentIds.set(doc, id);
  }
  return id;
}

const NONE: Finding[] = [];

/** Whether two documents differ at most in their nodes' positions, which no rule reads: a drag, Arrange
 * or the layout made on opening is not checked again (on 500 nodes, a validation of the whole flow). */
export function sameMeaning(a: FlowDocument, b: FlowDocument): boolean {
  if (a === b) return true;
  if (a.nodes.length !== b.nodes.length) return false;
  if (!sameFields(a as object, b as object, 'nodes')) return false;
  return a.nodes.every(
    (node, i) => node === b.nodes[i] || sameFields(node, b.nodes[i] as object, 'position'),
  );
}

function sameFields(a: object, b: object, except: string): boolean {
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  keys.delete(except);
  return [...keys].every((key) => left[key] === right[key]);
}

export function useFindings(doc: FlowDocument): {
  findings: Finding[];
  warnings: Finding[];
  checking: boolean;
} {
  const { i18n } = useTranslation();
  // The last document whose meaning changed: one moved about is the same question to the server.
  const meaning = useRef(doc);
  if (!sameMeaning(meaning.current, doc)) meaning.current = doc;
  const checked = useSettled(meaning.current, FINDINGS_DELAY_MS);
  const query = useQuery({
    queryKey: flowKeys.findings(i18n.language, checked),
    queryKeyHashFn: ([, language, document]) =>
      `findings:${String(language)}:${documentId(document as FlowDocument)}`,
    queryFn: () => validateFlow(checked, i18n.language),
    placeholderData: keepPreviousData,
    enabled: checked.nodes.length > 0,
  });
  return {
    findings: query.data?.findings ?? NONE,
    // Warnings never make a flow invalid (a join missing where branches meet): shown, never blocking.
    warnings: query.data?.warnings ?? NONE,
    checking: checked !== meaning.current || query.isFetching,
  };
}
