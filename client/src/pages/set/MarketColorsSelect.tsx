import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  isMarketColors,
  marketColorChoices,
  setMarketColors,
  useMarketColors,
  type MarketColors,
} from '@client/app/market-colors';

const labelKey = {
  'green-up': 'account.settings.marketColorsGreenUp',
  'red-up': 'account.settings.marketColorsRedUp',
} as const satisfies Record<MarketColors, string>;

/** Settings row: green up or red up (app/market-colors.ts); shows the convention in force. */
export function MarketColorsSelect() {
  const { t } = useTranslation();
  const { colors } = useMarketColors();
  const id = useId();
  return (
    <div className="language-select language-select--row">
      <label htmlFor={id} className="language-select__label">
        {t('account.settings.marketColors')}
      </label>
      <select
        id={id}
        data-testid="market-colors-select"
        value={colors}
        onChange={(event) => {
          const value = event.target.value;
          if (isMarketColors(value)) setMarketColors(value);
        }}
      >
        {marketColorChoices.map((choice) => (
          <option key={choice} value={choice}>
            {t(labelKey[choice])}
          </option>
        ))}
      </select>
    </div>
  );
}
