// The evidence for one decision, downloaded as one file an auditor checks with the public key alone
// (`flowyard audit check-evidence`; docs/audit.md). Offered only to whom the server gives it: an auditor
// of the approval's flow, once the approval is decided.
import { useTranslation } from 'react-i18next';
import { evidenceHref } from '../api/approvals';
import { useRights } from '../runs/rights';

export function EvidenceLink({
  approval,
}: {
  approval: { id: number; flow_id: number; outcome: string | null };
}) {
  const { t } = useTranslation();
  const may = useRights();
  if (!approval.outcome || !may('audit', approval.flow_id)) return null;
  return (
    <a className="evidence" href={evidenceHref(approval.id)} download>
      {t('ui_evidence_download')}
    </a>
  );
}
