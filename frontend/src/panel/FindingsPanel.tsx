// The findings of the current document, in the author's language; clicking one selects what it names.
// Each reads as the editor says it (flows/findingText.ts: the node by its label, the field by its title,
// what to do); the code stays in `data-code` for programs and tests.
import { useTranslation } from 'react-i18next';
import type { Finding } from '../flows/findings';
import type { Placed } from '../flows/findingText';
import { WarningList } from './WarningList';

interface Props {
  findings: Finding[];
  /** `findings` as sentences, in the same order. */
  said: Placed[];
  warnings?: Finding[];
  onPick: (finding: Finding) => void;
}

export function FindingsPanel({ findings, said, warnings, onPick }: Props) {
  const { t } = useTranslation();
  return (
    <section className="findings" aria-labelledby="findings-title">
      <h2 id="findings-title">{t('ui_findings_title', { count: findings.length })}</h2>
      {findings.length === 0 ? (
        <p>{t('ui_findings_none')}</p>
      ) : (
        <ul>
          {findings.map((finding, i) => (
            <li key={i}>
              <button
                type="button"
                className="finding"
                data-code={finding.code}
                onClick={() => onPick(finding)}
              >
                {said[i]?.sentence ?? finding.message}
              </button>
            </li>
          ))}
        </ul>
      )}
      {warnings && warnings.length > 0 && <WarningList warnings={warnings} onPick={onPick} />}
    </section>
  );
}
