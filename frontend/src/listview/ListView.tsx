// Placeholder until the list view lands (step 4).
import { useTranslation } from 'react-i18next';
import type { Finding } from '../flows/findings';

export function ListView({ findings }: { findings: Finding[] }) {
  const { t } = useTranslation();
  return <p>{t('ui_findings_title', { count: findings.length })}</p>;
}
