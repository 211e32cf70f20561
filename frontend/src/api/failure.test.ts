import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { api, ApiError, Unreached, unwrap } from './client';
import { failureSentence } from './failure';

// The key in brackets: what a page would look up in the reader's catalog.
const t = ((key: string) => `[${key}]`) as unknown as TFunction;

/** What api.GET throws through unwrap when `answer` stands in for the network. */
async function failureOf(answer: (request: Request) => Promise<Response>): Promise<unknown> {
  try {
    // An absolute address: Node has no page for a relative one to be read against.
    unwrap(await api.GET('/api/me', { baseUrl: 'http://flowyard.test', fetch: answer }));
  } catch (failure) {
    return failure;
  }
  throw new Error('the request did not fail');
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('what a page says when a request fails', () => {
  it("says the API's own sentence under its reason code", async () => {
    const failure = await failureOf(async () =>
      json(409, {
        error: { code: 'flow_version_stale', message: 'Version 4 was saved by ana.', detail: null },
      }),
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe('flow_version_stale');
    expect(failureSentence(failure, t)).toBe('Version 4 was saved by ana.');
  });

  it("says the catalog's network sentence, not the browser's words, when the API was never reached", async () => {
    const failure = await failureOf(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(failure).toBeInstanceOf(Unreached);
    expect(failureSentence(failure, t)).toBe('[ui_error_network]');
    expect(failureSentence(failure, t, 'ui_run_journal_more_failed')).toBe('[ui_run_journal_more_failed]');
    expect(failureSentence(failure, t)).not.toContain('Failed to fetch');
  });

  it('says the general sentence for an answer without the API’s body (a proxy’s error page)', async () => {
    const failure = await failureOf(async () => new Response('<html>Bad Gateway</html>', { status: 502 }));
    expect(failure).toBeInstanceOf(ApiError);
    expect(failureSentence(failure, t)).toBe('[ui_error_unexpected]');
  });

  it('says the general sentence for anything else, and never an error’s own message', () => {
    // A TypeError of our own code is not a lost connection: only the client marks those.
    expect(failureSentence(new TypeError("Cannot read properties of undefined (reading 'id')"), t)).toBe(
      '[ui_error_unexpected]',
    );
    expect(failureSentence(new SyntaxError('Unexpected token < in JSON'), t)).toBe('[ui_error_unexpected]');
    expect(failureSentence('a string thrown', t)).toBe('[ui_error_unexpected]');
    expect(failureSentence(undefined, t)).toBe('[ui_error_unexpected]');
  });

  it('leaves a cancelled request as it is (no page says anything about it)', async () => {
    const failure = await failureOf(() =>
      Promise.reject(new DOMException('The user aborted.', 'AbortError')),
    );
    expect(failure).not.toBeInstanceOf(Unreached);
    expect((failure as DOMException).name).toBe('AbortError');
  });
});
