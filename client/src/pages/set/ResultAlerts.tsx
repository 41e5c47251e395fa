import { useTranslation } from 'react-i18next';
import { useResultAlert } from '@client/state/result-alerts';
import '@client/components/results/results.css';

function SwitchRow({
  label,
  kind,
  testId,
}: {
  label: string;
  kind: 'sound' | 'vibration';
  testId: string;
}) {
  const [on, setOn] = useResultAlert(kind);
  return (
    <label className="menu__row result-alert-row">
      <span>{label}</span>
      <input
        type="checkbox"
        role="switch"
        className="result-alert-row__switch"
        checked={on}
        onChange={(event) => setOn(event.target.checked)}
        data-testid={testId}
      />
    </label>
  );
}

/** Settings rows: a beep and a vibration when an order settles (both off unless chosen). */
export function ResultAlerts() {
  const { t } = useTranslation();
  return (
    <>
      <SwitchRow label={t('results.settings.sound')} kind="sound" testId="result-sound" />
      <SwitchRow
        label={t('results.settings.vibration')}
        kind="vibration"
        testId="result-vibration"
      />
    </>
  );
}
