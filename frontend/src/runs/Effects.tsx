// The run's actions and their effect state: sent (an answer is recorded), failed, or pending (a try is
// under way, or died and will be tried again under the same key).
import { useTranslation } from 'react-i18next';
import { EFFECT_KEYS } from './format';
import type { Effect } from './types';

export function Effects({ effects }: { effects: Effect[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="effects-title">
      <h2 id="effects-title">{t('ui_run_effects')}</h2>
      {effects.length === 0 ? (
        <p>{t('ui_run_no_effects')}</p>
      ) : (
        <table>
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
                <td>{effect.node}</td>
                <td data-type={effect.type}>{t(`node_type_${effect.type}`)}</td>
                <td className={`effect-${effect.state}`}>{t(EFFECT_KEYS[effect.state] ?? effect.state)}</td>
                <td data-code={effect.code ?? undefined}>
                  {effect.status ?? effect.code_message ?? effect.code ?? ''}
                </td>
                <td>
                  <code>{effect.key}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
