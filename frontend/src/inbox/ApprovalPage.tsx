// The page a mail links to (/approvals/:id). Opening it decides nothing: mail scanners and link
// previews open links too. It shows the question, and for a decided approval who decided what and when.
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { failureSentence } from '../api/failure';
import { approvalQuery } from '../api/approvals';
import { EvidenceLink } from '../audit/EvidenceLink';
import { ApprovalCard } from './ApprovalCard';

export function ApprovalPage() {
  const { t } = useTranslation();
  const approvalId = Number(useParams().approvalId);
  // Not refetched under the approver's hands while they read and write a comment: a decision that lost
  // the race meanwhile is answered by the server with who decided what and when.
  const approval = useQuery({ ...approvalQuery(approvalId), refetchOnWindowFocus: false });
  if (approval.error) return <p role="alert">{failureSentence(approval.error, t)}</p>;
  if (!approval.data) return <p aria-busy="true">{t('ui_loading')}</p>;
  return (
    <section className="page">
      <h1>{t('ui_approval_title')}</h1>
      {/* One card per approval id: another approval's page starts with nothing armed and no comment. */}
      <ApprovalCard key={approval.data.id} approval={approval.data} />
      <p>
        <EvidenceLink approval={approval.data} />
      </p>
    </section>
  );
}
