import fs from 'node:fs';
import path from 'node:path';

/** The entry script and modulepreloads of a built index.html, as paths under `distDir`. */
export function initialScripts(distDir: string): string[] {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const tags = html.match(/<(script|link)\b[^>]*>/g) ?? [];
  const files: string[] = [];
  for (const tag of tags) {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    const isEntry = tag.startsWith('<script') && attr('type') === 'module' && attr('src');
    const isPreload = tag.startsWith('<link') && attr('rel') === 'modulepreload' && attr('href');
    const url = isEntry ? attr('src') : isPreload ? attr('href') : undefined;
    if (url && !/^[a-z]+:/i.test(url)) files.push(url.replace(/^\//, ''));
  }
  if (files.length === 0) throw new Error(`${distDir}/index.html names no entry script`);
  return [...new Set(files)];
}

/** The source files bundled into `files`, from their source maps (none where a map is missing). */
export function initialSources(distDir: string, files: readonly string[]): string[] {
  return files.flatMap((file) => {
    const map = path.join(distDir, `${file}.map`);
    if (!fs.existsSync(map)) return [];
    return (JSON.parse(fs.readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  });
}

/**
 * What the first page must not load with it: the chart library and the locale files come with
 * the screens that use them, and zod (form and server checks) with the first form.
 */
export const onDemand = {
  charts: /node_modules\/lightweight-charts\//,
  locales: /i18n\/locales\/.+\.json$/,
  zod: /node_modules\/zod\//,
};
