import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { registerUser } from '@tests/support/api';
import { phonePage } from '@tests/support/browser';
import { useAppAndBrowser } from '@tests/support/e2e';

/**
 * Issue 37, item 10: the phone's Back button with a dialog open closes the dialog and stays on
 * the page; a dialog closed by its own buttons leaves no history entry behind, so the next Back
 * leaves the page. Covers the picker (PickerDialog, via the language and theme choices) and the
 * confirmation (ConfirmDialog) on the settings page, reached from Home.
 */
describe('Back closes an open dialog (Chromium, embedded app)', () => {
  let token = '';
  const e2e = useAppAndBrowser({ SIM_BACKFILL_HOURS: '1' });
  beforeAll(async () => {
    token = (await registerUser({ http: request(e2e.app.url) }, 'back')).token;
  });

  const settings = '#/pages/set/set';

  /** Home, then the settings page by an in-app navigation: Back from settings leads Home. */
  async function openSettings(): Promise<{ page: Page; close: () => Promise<void> }> {
    const { context, page } = await phonePage(e2e.browser, { locale: 'en' });
    await context.addInitScript(
      `localStorage.setItem('i18nLang', 'en'); localStorage.setItem('token', ${JSON.stringify(JSON.stringify(token))});`,
    );
    await page.goto(`${e2e.app.url}/#/`);
    await page.getByTestId('language-button').first().waitFor();
    await page.evaluate((hash) => (location.hash = hash), settings);
    await page.getByTestId('language-select').waitFor();
    return { page, close: () => context.close() };
  }

  const onSettings = (page: Page) => new URL(page.url()).hash === settings;

  it.each([
    ['the language picker', 'language-select', 'language-dialog'],
    ['the theme picker', 'theme-select', 'theme-select-dialog'],
    ['the confirmation', 'clear-cache', 'confirm-cancel'],
  ])('%s: Back closes it and keeps the page; the next Back leaves', async (_, opener, inside) => {
    const { page, close } = await openSettings();
    try {
      await page.getByTestId(opener).click();
      await page.getByTestId(inside).waitFor();
      await page.goBack();
      await expect.poll(() => page.getByTestId(inside).count()).toBe(0);
      expect(onSettings(page)).toBe(true);
      await expect(page.getByTestId(opener).isVisible()).resolves.toBe(true);
      await page.goBack();
      await expect.poll(() => onSettings(page)).toBe(false);
    } finally {
      await close();
    }
  });

  it('a dialog closed by its own button leaves no entry: the next Back leaves the page', async () => {
    const { page, close } = await openSettings();
    try {
      const length = await page.evaluate(() => history.length);
      await page.getByTestId('language-select').click();
      await page.getByTestId('language-dialog').waitFor();
      await page.getByTestId('language-dialog').getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => page.getByTestId('language-dialog').count()).toBe(0);
      // The pushed entry is taken off again (the length stays, the current entry is the page's).
      await expect
        .poll(() => page.evaluate(() => (history.state as { overlay?: string } | null)?.overlay))
        .toBeUndefined();
      // A pick closes it the same way.
      await page.getByTestId('theme-select').click();
      await page.getByTestId('theme-select-dialog').waitFor();
      await page.getByTestId('theme-select-dark').click();
      await expect
        .poll(() => page.evaluate(() => (history.state as { overlay?: string } | null)?.overlay))
        .toBeUndefined();
      expect(onSettings(page)).toBe(true);
      expect(await page.evaluate(() => history.length)).toBe(length + 1);
      await page.goBack();
      await expect.poll(() => onSettings(page)).toBe(false);
      expect(new URL(page.url()).hash).toMatch(/^#\/(pages\/index\/index)?$/);
    } finally {
      await close();
    }
  });
});
