// Pages another branch builds (runs, inbox, audit, people): a heading until they land.
import { useTranslation } from 'react-i18next';

export function Placeholder({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <section className="page">
      <h1>{t(title)}</h1>
    </section>
  );
}
