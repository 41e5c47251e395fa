/**
 * Draws the app icons in client/public/icons/ (the web app manifest and apple-touch-icon) from
 * one SVG, rendered by Chromium through playwright-core: `npx tsx scripts/make-icons.ts`.
 * The PNGs are committed; run this again only when the design below changes.
 *
 * "any" icons have rounded corners on a transparent ground; "maskable" ones fill the square and
 * keep the drawing inside the central 80% circle that launchers never crop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumPath } from '../tests/support/tiers';

const outDir = path.resolve(import.meta.dirname, '../client/public/icons');

/** The mark: three rising candles and a trend arrow, white and amber on the accent blue. */
function svg({ size, maskable }: { size: number; maskable: boolean }): string {
  // Maskable: the glyph shrinks to sit in the safe zone; the ground fills the square.
  const scale = maskable ? 0.72 : 0.86;
  const offset = (512 * (1 - scale)) / 2;
  const radius = maskable ? 0 : 112;
  const bars: { x: number; wick: [number, number]; body: [number, number] }[] = [
    { x: 150, wick: [250, 392], body: [286, 360] },
    { x: 256, wick: [186, 340], body: [214, 306] },
    { x: 362, wick: [112, 276], body: [138, 236] },
  ];
  const candles = bars
    .map(
      ({ x, wick, body }) => `
      <line x1="${x}" y1="${wick[0]}" x2="${x}" y2="${wick[1]}" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/>
      <rect x="${x - 30}" y="${body[0]}" width="60" height="${body[1] - body[0]}" rx="10" fill="#ffffff"/>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512">
  <rect width="512" height="512" rx="${radius}" fill="#1d4ed8"/>
  <g transform="translate(${offset} ${offset}) scale(${scale})">
    ${candles}
    <polyline points="86,416 196,330 300,300 414,178" fill="none" stroke="#fbbf24" stroke-width="22" stroke-linecap="round" stroke-linejoin="round"/>
    <polygon points="452,134 434,201 386,153" fill="#fbbf24" stroke="#fbbf24" stroke-width="8" stroke-linejoin="round"/>
  </g>
</svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-192.png', size: 192, maskable: true },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  // iOS rounds the corners itself and shows transparency as black: a full square.
  { file: 'apple-touch-icon.png', size: 180, maskable: true },
];

const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
try {
  fs.mkdirSync(outDir, { recursive: true });
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, maskable } of icons) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg({ size, maskable })}</body></html>`,
    );
    await page.screenshot({
      path: path.join(outDir, file),
      omitBackground: true,
      clip: { x: 0, y: 0, width: size, height: size },
    });
    console.log(`wrote client/public/icons/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
