// The header's count of approvals waiting for the user (the header holds the runs event stream that
// keeps it current).
import { useTranslation } from 'react-i18next';
import { INBOX_PAGE, useInboxCount } from '../api/approvals';

export function InboxBadge() {
  const { t } = useTranslation();
  const inbox = useInboxCount();
  const count = inbox.data?.count ?? 0;
  if (count === 0) return null;
  const text = inbox.data?.more ? `${INBOX_PAGE}+` : String(count);
  return (
    <span className="badge" data-testid="inbox-count" aria-label={t('ui_inbox_count', { count: text })}>
      {text}
    </span>
  );
}
