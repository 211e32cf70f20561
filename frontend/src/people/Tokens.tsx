// API tokens: made for a user with an optional expiry, shown once (the server keeps only a digest), and
// revoked from the list. The server refuses to revoke the token a request carries; the page uses the
// session cookie, so an admin can revoke any token here.
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { invalidatePeople, makeToken, revokeToken, tokensQuery } from '../api/people';
import { Moment } from '../i18n/Moment';
import { when } from '../runs/format';

export function Tokens({ names }: { names: string[] }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [user, setUser] = useState('');
  const [days, setDays] = useState('');
  const [secret, setSecret] = useState<{ user: string; token: string } | null>(null);
  const tokens = useQuery(tokensQuery);
  const create = useMutation({
    mutationFn: () => makeToken(user, days ? Number(days) : null),
    onSuccess: (made) => setSecret(made),
    onSettled: () => invalidatePeople(queries),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => revokeToken(id),
    onSettled: () => invalidatePeople(queries),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSecret(null);
    create.mutate();
  };
  return (
    <section className="tokens" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t('ui_people_tokens')}</h2>
      <form className="people-form row-form" aria-label={t('ui_people_new_token')} onSubmit={submit}>
        <label className="field">
          {t('ui_people_name')}
          <select name="token-user" required value={user} onChange={(e) => setUser(e.target.value)}>
            <option value="" disabled>
              {t('ui_people_choose_user')}
            </option>
            {names.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t('ui_people_token_days')}
          <input
            name="token-days"
            type="number"
            min={1}
            max={3660}
            value={days}
            onChange={(e) => setDays(e.target.value)}
          />
        </label>
        <button type="submit" disabled={create.isPending || !user}>
          {t('ui_people_new_token')}
        </button>
      </form>
      {create.error && <p role="alert">{failureSentence(create.error, t)}</p>}
      {secret && (
        <div className="token-secret" role="status">
          <p>{t('ui_people_token_once', { name: secret.user })}</p>
          <code data-testid="new-token">{secret.token}</code>
          <button type="button" onClick={() => setSecret(null)}>
            {t('ui_people_token_done')}
          </button>
        </div>
      )}
      {revoke.error && <p role="alert">{failureSentence(revoke.error, t)}</p>}
      <table className="token-list">
        <thead>
          <tr>
            <th scope="col">{t('ui_people_token_id')}</th>
            <th scope="col">{t('ui_people_name')}</th>
            <th scope="col">{t('ui_people_token_created')}</th>
            <th scope="col">{t('ui_people_token_expires')}</th>
            <th scope="col">{t('ui_people_token_used')}</th>
            <th scope="col">{t('ui_people_token_state')}</th>
          </tr>
        </thead>
        <tbody>
          {tokens.data?.tokens.map((token) => (
            <tr key={token.id} data-token={token.id}>
              <td>{token.id}</td>
              <td translate="no">{token.user}</td>
              <td>
                <Moment iso={token.created_at} />
              </td>
              <td>{token.expires_at ? <Moment iso={token.expires_at} /> : t('ui_people_token_never')}</td>
              <td>
                <Moment iso={token.last_used_at} />
              </td>
              <td>
                {token.revoked_at ? (
                  t('ui_people_token_revoked', { when: when(token.revoked_at) })
                ) : (
                  <button
                    type="button"
                    disabled={revoke.isPending}
                    aria-label={t('ui_people_token_revoke_label', { id: token.id, name: token.user })}
                    onClick={() => {
                      if (
                        window.confirm(
                          t('ui_people_token_revoke_confirm', { id: token.id, name: token.user }),
                        )
                      )
                        revoke.mutate(token.id);
                    }}
                  >
                    {t('ui_people_token_revoke')}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {tokens.data?.next !== null && tokens.data?.next !== undefined && (
        <p className="hint">{t('ui_people_tokens_more')}</p>
      )}
    </section>
  );
}
