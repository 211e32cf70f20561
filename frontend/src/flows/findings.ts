// Live findings: the document is validated by the server (POST /api/flows/validate) a moment after the
// last edit, in the author's language; the same rules as a save, so nothing is guessed here.
import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import type { FlowDocument } from './document';

export const FINDINGS_DELAY_MS = 150;

export interface Finding {
  code: string;
  node: string | null;
  wire: number | null;
  message: string;
  detail: string | null;
}

export function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setCurrent(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return current;
}

const NONE: Finding[] = [];

export function useFindings(doc: FlowDocument): {
  findings: Finding[];
  warnings: Finding[];
  checking: boolean;
} {
  const { i18n } = useTranslation();
  const checked = useDebounced(doc, FINDINGS_DELAY_MS);
  const query = useQuery({
    queryKey: ['findings', i18n.language, checked],
    queryFn: async () =>
      unwrap(
        await api.POST('/api/flows/validate', {
          body: checked as unknown as Record<string, never>,
          headers: { 'Accept-Language': i18n.language.replace('_', '-') },
        }),
      ),
    placeholderData: keepPreviousData,
    enabled: checked.nodes.length > 0,
  });
  return {
    findings: (query.data?.findings ?? []) as Finding[],
    // Warnings never make a flow invalid (a join missing where branches meet): shown, never blocking.
    warnings: ((query.data as { warnings?: Finding[] } | undefined)?.warnings ?? NONE) as Finding[],
    checking: checked !== doc || query.isFetching,
  };
}
