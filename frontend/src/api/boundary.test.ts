// The API's boundary holds by lint (eslint.config.js): a page that calls the client, fetch or an
// EventSource, writes an API address or a cache key of its own fails `npm run lint`.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint();

async function refusals(code: string, filePath = 'src/runs/Page.tsx'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

// Linting loads typescript-eslint's parser and the whole config: seconds on a busy machine, so these tests
// wait for the linter's answer however long it takes; what they assert is the answer.
describe('the API boundary', { timeout: 600_000 }, () => {
  it('refuses the client, fetch and an EventSource outside src/api/', async () => {
    expect(
      await refusals("import { api, unwrap } from '../api/client';\nexport const c = [api, unwrap];\n"),
    ).toEqual(['no-restricted-imports', 'no-restricted-imports']);
    expect(
      await refusals("import createClient from 'openapi-fetch';\nexport const c = createClient;\n"),
    ).toEqual(['no-restricted-imports']);
    expect(await refusals('export const f = () => fetch(`/x`);\n')).toEqual(['no-restricted-globals']);
    expect(await refusals("export const s = () => new EventSource('/x');\n")).toEqual([
      'no-restricted-globals',
    ]);
    expect(await refusals('export const f = () => window.fetch(`/x`);\n')).toEqual([
      'no-restricted-properties',
    ]);
  });

  it('refuses an API address and a cache key written in a page', async () => {
    expect(await refusals("export const a = '/api/runs';\n")).toEqual(['no-restricted-syntax']);
    expect(await refusals('export const a = (id: number) => `/api/runs/${id}`;\n')).toEqual([
      'no-restricted-syntax',
    ]);
    expect(await refusals("export const q = { queryKey: ['runs'] };\n")).toEqual(['no-restricted-syntax']);
  });

  it('lets a page use the error classes, and src/api/ the client', async () => {
    expect(await refusals("import { ApiError } from '../api/client';\nexport const e = ApiError;\n")).toEqual(
      [],
    );
    const inside = "import { api, unwrap } from './client';\nexport const c = [api, unwrap, '/api/x'];\n";
    expect(await refusals(inside, 'src/api/things.ts')).toEqual([]);
  });
});
