import { useTranslation } from 'react-i18next';
import {
  marketColorChoices,
  setMarketColors,
  useMarketColors,
  type MarketColors,
} from '@client/app/market-colors';
import { ChoicePicker } from '@client/components/ChoicePicker';

const labelKey = {
  'green-up': 'account.settings.marketColorsGreenUp',
  'red-up': 'account.settings.marketColorsRedUp',
} as const satisfies Record<MarketColors, string>;

/** Settings row: green up or red up (app/market-colors.ts); shows the convention in force. */
export function MarketColorsSelect() {
  const { t } = useTranslation();
  const { colors } = useMarketColors();
  return (
    <ChoicePicker
      label={t('account.settings.marketColors')}
      testId="market-colors-select"
      value={colors}
      choices={marketColorChoices.map((choice) => ({ value: choice, label: t(labelKey[choice]) }))}
      onValue={setMarketColors}
    />
  );
}
