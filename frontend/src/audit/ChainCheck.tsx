// Verify the chained trail from the audit page: the server re-reads every record of the chains (of one
// flow, with the filter's flow) and says whether anything was changed, removed or inserted. The chain's
// export (with its hashes) verifies offline with `flowyard audit verify --file`.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../i18n/format';
import { chainExportHref, verifyChain } from '../api/audit';
import { failureSentence } from '../api/failure';

export function ChainCheck({ flow }: { flow: string }) {
  const { t } = useTranslation();
  const check = useMutation({ mutationFn: () => verifyChain(flow ? Number(flow) : null) });
  const exportHref = chainExportHref(flow);
  return (
    <p className="chain-check">
      <button type="button" onClick={() => check.mutate()} disabled={check.isPending}>
        {t('ui_audit_verify')}
      </button>{' '}
      <a href={exportHref} download="flowyard-chain.json">
        {t('ui_audit_export_chain')}
      </a>{' '}
      {check.data && (
        <span role="status" className={check.data.intact ? 'intact' : 'broken'}>
          {check.data.intact
            ? t('ui_audit_chain_intact', {
                count: check.data.records,
                records: formatNumber(check.data.records),
              })
            : t('ui_audit_chain_broken', {
                count: check.data.breaks.length,
                breaks: formatNumber(check.data.breaks.length),
                records: formatNumber(check.data.records),
              })}
        </span>
      )}
      {check.error && <span role="alert">{failureSentence(check.error, t)}</span>}
    </p>
  );
}
