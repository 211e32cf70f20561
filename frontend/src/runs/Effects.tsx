// The run's actions and their effect state: sent (an answer is recorded), failed, pending (a try is
// under way, or died and will be tried again under the same key), or late (an answer came after its
// attempt was given up: kept for people beside the outcome that stands, which the run went on with). On a phone each effect is a card, each
// cell named by its column (data-label).
import { useTranslation } from 'react-i18next';
import { EFFECT_KEYS, when } from './format';
import type { Effect } from '../api/runs';

export function Effects({ effects }: { effects: Effect[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="effects-title">
      <h2 id="effects-title">{t('ui_run_effects')}</h2>
      {effects.length === 0 ? (
        <p>{t('ui_run_no_effects')}</p>
      ) : (
        <table className="effects">
          <thead>
            <tr>
              <th scope="col">{t('ui_run_node')}</th>
              <th scope="col">{t('ui_run_effect_type')}</th>
              <th scope="col">{t('ui_run_effect_state')}</th>
              <th scope="col">{t('ui_run_effect_answer')}</th>
              <th scope="col">{t('ui_run_effect_key')}</th>
            </tr>
          </thead>
          <tbody>
            {effects.map((effect) => (
              <tr key={effect.visit} data-effect={effect.node}>
                <td data-label={t('ui_run_node')} translate="no">
                  {effect.node}
                </td>
                <td data-label={t('ui_run_effect_type')} data-type={effect.type}>
                  {t(`node_type_${effect.type}`)}
                </td>
                <td data-label={t('ui_run_effect_state')} className={`effect-${effect.state}`}>
                  {t(EFFECT_KEYS[effect.state] ?? effect.state)}
                </td>
                <td data-label={t('ui_run_effect_answer')} data-code={effect.code ?? undefined}>
                  {effect.status ?? effect.code_message ?? effect.code ?? ''}
                  {effect.late_at ? (
                    <p className="effect-late-answer">
                      {typeof effect.late_status === 'number'
                        ? t('ui_run_effect_late_status', {
                            status: effect.late_status,
                            at: when(effect.late_at),
                          })
                        : t('ui_run_effect_late_plain', { at: when(effect.late_at) })}
                    </p>
                  ) : null}
                </td>
                <td data-label={t('ui_run_effect_key')}>
                  <code translate="no">{effect.key}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
