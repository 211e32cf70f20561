// Add a user: a name, an optional password (without one they use tokens only), an e-mail address for the
// approval mails, a language for the mails and pages, groups and first rights. Nothing is kept from a
// refused form on the server: the API writes the user and their grants in one transaction.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addUser, invalidatePeople } from '../api/people';
import { failureSentence } from '../api/failure';
import { LOCALES } from '../i18n/i18n';
import { NAMES } from '../shell/LanguageMenu';

interface Draft {
  name: string;
  email: string;
  locale: string;
  password: string;
  groups: string;
}

const EMPTY: Draft = { name: '', email: '', locale: '', password: '', groups: '' };

function words(text: string): string[] {
  return text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
}

export function NewUser() {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [created, setCreated] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (d: Draft) =>
      addUser({
        name: d.name.trim(),
        ...(d.email.trim() ? { email: d.email.trim() } : {}),
        ...(d.locale ? { locale: d.locale as (typeof LOCALES)[number] } : {}),
        ...(d.password ? { password: d.password } : {}),
        groups: words(d.groups),
      }),
    onSuccess: (user) => {
      setCreated(user.name);
      setDraft(EMPTY);
    },
    onSettled: () => invalidatePeople(queries),
  });
  const set = (field: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft({ ...draft, [field]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setCreated(null);
    add.mutate(draft);
  };
  return (
    <form className="people-form" aria-labelledby="new-user" onSubmit={submit}>
      <h2 id="new-user">{t('ui_people_new_user')}</h2>
      <label className="field">
        {t('ui_people_name')}
        <input name="new-name" required maxLength={64} value={draft.name} onChange={set('name')} />
      </label>
      <label className="field">
        {t('ui_people_email')}
        <input name="new-email" type="email" maxLength={254} value={draft.email} onChange={set('email')} />
      </label>
      <label className="field">
        {t('ui_people_locale')}
        <select name="new-locale" value={draft.locale} onChange={set('locale')}>
          <option value="">{t('ui_people_locale_browser')}</option>
          {LOCALES.map((locale) => (
            <option key={locale} value={locale}>
              {t(NAMES[locale])}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        {t('ui_people_password')}
        <input
          name="new-password"
          type="password"
          autoComplete="new-password"
          maxLength={1024}
          value={draft.password}
          onChange={set('password')}
        />
      </label>
      <label className="field">
        {t('ui_people_groups_comma')}
        <input name="new-groups" value={draft.groups} onChange={set('groups')} />
      </label>
      <button type="submit" disabled={add.isPending}>
        {t('ui_people_add_user')}
      </button>
      {created && <p role="status">{t('ui_people_user_added', { name: created })}</p>}
      {add.error && <p role="alert">{failureSentence(add.error, t)}</p>}
    </form>
  );
}
