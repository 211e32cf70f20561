// The validator's warnings, under the findings and softer than them: they never block a save. A join
// missing where branches meet (`branches_meet_without_join`) has a one-click fix: a join put in front of
// the node, waiting for every wire that led into it (document.ts insertJoin), undone with one Ctrl+Z.
import { useTranslation } from 'react-i18next';
import { insertJoin } from '../flows/document';
import type { Finding } from '../flows/findings';
import { useEditor } from '../flows/store';

interface Props {
  warnings: Finding[];
  onPick: (warning: Finding) => void;
}

export function WarningList({ warnings, onPick }: Props) {
  const { t } = useTranslation();
  const readOnly = useEditor((s) => s.viewing !== null);
  return (
    <div className="warnings">
      <h3 id="warnings-title">{t('ui_warnings_title', { count: warnings.length })}</h3>
      <ul aria-labelledby="warnings-title">
        {warnings.map((warning, i) => (
          <li key={i} className="warning" data-code={warning.code}>
            {/* `finding`: the server's sentence (its catalogs), as the findings above are. */}
            <button type="button" className="warning-text finding" onClick={() => onPick(warning)}>
              {warning.message}
            </button>
            {warning.code === 'branches_meet_without_join' && warning.node && !readOnly && (
              <button
                type="button"
                onClick={() => {
                  const editor = useEditor.getState();
                  const fixed = insertJoin(editor.doc, warning.node ?? '');
                  editor.apply(fixed.doc);
                  editor.select([fixed.join]);
                }}
              >
                {t('ui_warning_insert_join', { node: warning.node })}
              </button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
