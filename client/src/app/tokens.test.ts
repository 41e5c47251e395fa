import { describe, expect, it } from 'vitest';

/**
 * The visual system (docs/VISUAL-SYSTEM.md) enforced: every colour, type size, weight and space
 * in the trader's app comes from client/src/app/tokens.css. The operator console (ops/) has its
 * own look and is not checked. Files are read through Node's fs, reached by hand (the client's
 * types know no Node modules; tests run from the repo root).
 */
interface Fs {
  readFileSync(path: string, encoding: 'utf8'): string;
  readdirSync(path: string, options: { recursive: true }): string[];
}
const fs = (
  globalThis as unknown as { process: { getBuiltinModule(id: 'node:fs'): Fs } }
).process.getBuiltinModule('node:fs');

const root = 'client/src';
const files = fs
  .readdirSync(root, { recursive: true })
  .map((f) => f.replaceAll('\\', '/'))
  .filter((f) => !f.startsWith('ops/'));
const cssFiles = files.filter((f) => f.endsWith('.css') && f !== 'app/tokens.css');
const tsxFiles = files.filter((f) => f.endsWith('.tsx'));
const tokensCss = fs.readFileSync(`${root}/app/tokens.css`, 'utf8');

interface Declaration {
  selector: string;
  prop: string;
  value: string;
  line: number;
}

/** Every declaration of a stylesheet with its rule's selector and line, comments stripped. */
function declarations(css: string): Declaration[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const found: Declaration[] = [];
  for (const rule of text.matchAll(/([^{}]*)\{([^{}]*)\}/g)) {
    const selector = rule[1]!.trim().replace(/\s+/g, ' ');
    const bodyAt = rule.index + rule[0].indexOf('{') + 1;
    for (const m of rule[2]!.matchAll(/([-\w]+)\s*:\s*([^;]+);/g)) {
      const line = text.slice(0, bodyAt + m.index).split('\n').length;
      const value = m[2]!.trim().replace(/\s+/g, ' ');
      found.push({ selector, prop: m[1]!.toLowerCase(), value, line });
    }
  }
  return found;
}

const namedColours =
  /\b(white|black|red|green|blue|gray|grey|silver|yellow|orange|purple|pink|navy|teal|maroon|olive|lime|aqua|fuchsia|gold|brown|crimson|tomato|salmon)\b/i;
const rawColour = /#[0-9a-f]{3,8}\b|\b(rgba?|hsla?|hwb|lab|lch|oklab|oklch)\(/i;

/** The value with var(--x) and env(...) references taken out: what is left is written raw. */
const bare = (value: string) => value.replace(/var\(--[\w-]+\)/g, '').replace(/env\([^)]*\)/g, '');

const typeTokens = ['--fs-xs', '--fs-sm', '--fs-md', '--fs-lg', '--fs-xl', '--fs-2xl'];
const weightTokens = ['--fw-regular', '--fw-medium', '--fw-bold'];
const spaceTokens = ['--space-1', '--space-2', '--space-3', '--space-4', '--space-5', '--space-6'];
const spacing = /^(margin|padding|gap|row-gap|column-gap)(-[\w-]+)?$|^inset$/;

/** One problem per rule broken, "file:line prop: value — why". */
function problemsIn(file: string, css: string): string[] {
  const problems: string[] = [];
  for (const { selector, prop, value, line } of declarations(css)) {
    const at = `${file}:${line} ${prop}: ${value}`;
    if (prop.startsWith('--')) {
      problems.push(`${at} — custom properties are defined in tokens.css only`);
      continue;
    }
    if (rawColour.test(bare(value)) || (namedColours.test(bare(value)) && !prop.startsWith('font')))
      problems.push(`${at} — a raw colour (use a colour token)`);
    if (
      prop === 'font-size' &&
      !typeTokens.some((t) => value === `var(${t})`) &&
      value !== 'inherit'
    )
      problems.push(`${at} — a font size off the type scale`);
    if (prop === 'font-weight' && !weightTokens.some((t) => value === `var(${t})`))
      problems.push(`${at} — a weight that is not a weight token`);
    if (prop === 'font' && !/^inherit$/.test(value))
      problems.push(`${at} — the font shorthand hides a size (use font-size)`);
    if (spacing.test(prop)) {
      // 0, auto and 1px hairlines are allowed; everything else is a spacing token.
      const raw = bare(value).match(/-?\d*\.?\d+(px|rem|em|%|vw|vh)/g) ?? [];
      if (raw.some((r) => !['0px', '1px', '-1px'].includes(r)))
        problems.push(`${at} — a space off the spacing scale`);
    }
    if (
      (prop === 'background' || prop === 'background-color') &&
      /^var\(--(accent|up|down)\)$/.test(value)
    )
      problems.push(`${at} — a fill uses --accent-fill / --up-fill / --down-fill (white text)`);
    // Links inside running text (a paragraph, a list item, an article) keep their underline, and
    // so does a button that reads as a link there (the consent sentence's "trading rules").
    const prose = selector
      .split(',')
      .every((s) => /\b(p|li|rich-text)\b[^,]* (a|button)\b/.test(s));
    if (prop === 'text-decoration' && /underline/.test(value) && !prose)
      problems.push(`${at} — no underlined links in the app chrome`);
    if (prop === 'resize' && value !== 'none' && value !== 'vertical')
      problems.push(`${at} — textareas do not resize sideways`);
  }
  return problems;
}

/** The custom properties of the first block whose selector is exactly `selector`. */
function block(selector: string): Record<string, string> {
  const start = tokensCss.indexOf(`${selector} {`);
  if (start < 0) throw new Error(`no ${selector} block in tokens.css`);
  const body = tokensCss.slice(start, tokensCss.indexOf('}', start));
  return Object.fromEntries(
    [...body.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map((m) => [m[1]!, m[2]!.trim()]),
  );
}

function resolve(theme: Record<string, string>, name: string, depth = 0): string {
  const v = theme[name] ?? '';
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  return ref && depth < 5 ? resolve(theme, ref[1]!, depth + 1) : v;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('tokens.css', () => {
  const light = block(':root');
  it('holds the scales of docs/VISUAL-SYSTEM.md', () => {
    expect(spaceTokens.map((t) => light[t])).toEqual([
      '4px',
      '8px',
      '12px',
      '16px',
      '24px',
      '32px',
    ]);
    expect(light['--page-x']).toBe('var(--space-4)');
    expect(typeTokens.every((t) => /^\d+px$/.test(light[t] ?? ''))).toBe(true);
    const sizes = typeTokens.map((t) => parseInt(light[t]!, 10));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
    expect(weightTokens.map((t) => light[t])).toEqual(['400', '600', '700']);
    expect(light['--tap']).toBe('44px');
  });

  /*
   * White on every fill, both themes, both market conventions: 4.5:1, the ratio for normal
   * text. The Buy buttons' labels are 16 px semibold (under the 18.66 px bold of "large text"),
   * so the stricter ratio applies to them too.
   */
  const dark = { ...light, ...block(":root[data-theme='dark']") };
  const redUp = block(":root[data-market='red-up']");
  it.each([
    ['light', light],
    ['dark', dark],
    ['light, red up', { ...light, ...redUp }],
    ['dark, red up', { ...dark, ...redUp }],
  ])('%s: white text on the accent and the Buy fills reaches 4.5:1', (_name, theme) => {
    expect(resolve(theme, '--on-fill')).toBe('#ffffff');
    for (const fill of ['--accent-fill', '--up-fill', '--down-fill', '--danger-bg']) {
      const ratio = contrast('#ffffff', resolve(theme, fill));
      expect(ratio, `white on ${fill} (${resolve(theme, fill)})`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keeps the up and down fills apart from each other under both conventions', () => {
    expect(resolve(light, '--up-fill')).toBe(resolve(light, '--green-fill'));
    expect(resolve({ ...dark, ...redUp }, '--up-fill')).toBe(resolve(dark, '--red-fill'));
    expect(resolve({ ...dark, ...redUp }, '--down-fill')).toBe(resolve(dark, '--green-fill'));
  });
});

describe('every stylesheet of the app uses the tokens (ops/ excepted)', () => {
  it('finds the stylesheets', () => {
    expect(cssFiles.length).toBeGreaterThan(15);
  });
  it.each(cssFiles)('%s', (file) => {
    expect(problemsIn(file, fs.readFileSync(`${root}/${file}`, 'utf8'))).toEqual([]);
  });

  it('writes no colour literal in a style={{…}} of a component', () => {
    const found: string[] = [];
    for (const file of tsxFiles) {
      const text = fs.readFileSync(`${root}/${file}`, 'utf8');
      for (const m of text.matchAll(/style=\{\{([^}]*)\}\}/g))
        if (rawColour.test(bare(m[1]!)) || /['"](white|black|red|green)['"]/.test(m[1]!))
          found.push(`${file}: style={{${m[1]!.trim()}}}`);
    }
    expect(found).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    const bad = `.a { color: #fff; font-size: 17px; padding: 10px 16px; font-weight: bold;
      background: var(--accent); text-decoration: underline; resize: both; }`;
    expect(problemsIn('x.css', bad)).toHaveLength(7);
    const good = `.a { color: var(--text); font-size: var(--fs-md); padding: 0 var(--page-x);
      margin: 0 auto 1px; gap: var(--space-2); font-weight: var(--fw-bold); border: 1px solid
      var(--border); resize: none; background: transparent; }`;
    expect(problemsIn('x.css', good)).toEqual([]);
  });
});
