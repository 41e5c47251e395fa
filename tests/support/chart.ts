import type { Page } from 'playwright-core';

/**
 * Picks a chart interval as a trader does: its own button where it is in the row, else through
 * "More" (a phone upright keeps the hour-and-longer intervals there; IntervalSwitcher.tsx).
 */
export async function pickInterval(page: Page, interval: string): Promise<void> {
  const button = page.getByTestId(`interval-${interval}`);
  if (await button.isVisible()) return button.click();
  await page.getByTestId('interval-more').click();
  await page.getByTestId(`interval-more-option-${interval}`).click();
}
