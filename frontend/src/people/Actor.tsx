// Who did something, as a table cell reads it: a person's name as they wrote it (marked translate="no"),
// or the command line in the reader's words. The command line writes its changes and runs under the
// actor 'cli' (backend/people/commands.py, queue/commands.py), a name no user may take.
import { useTranslation } from 'react-i18next';

const COMMAND_LINE = 'cli';

export function Actor({ name }: { name: string | null | undefined }) {
  const { t } = useTranslation();
  if (name === COMMAND_LINE || name === '') return <>{t('ui_people_trail_cli')}</>;
  if (!name) return null;
  return <span translate="no">{name}</span>;
}
