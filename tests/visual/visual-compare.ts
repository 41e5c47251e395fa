import fs from 'node:fs';
import path from 'node:path';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { repoRoot } from '@tests/support/processes';

/**
 * The visual guard's judge (docs/TESTING.md, Visual guard): a screenshot against its baseline in
 * tests/visual/baselines/, pixel by pixel; a failure leaves the actual and the diff image under
 * artifacts/visual/. visual-guard.ts takes the screenshots.
 */
const baselineDir = path.join(repoRoot, 'tests/visual/baselines');
const artifactDir = path.join(repoRoot, 'artifacts/visual');

/** A pixel differs past pixelmatch's colour threshold; an image fails past this share of them. */
const PIXEL_THRESHOLD = 0.1;
const MAX_DIFF_SHARE = 0.0005;

export interface Shot {
  /** Path under the baselines: `<variant>/<width>x<height>/<name>.png`. */
  key: string;
  png: Buffer;
}

interface Comparison {
  key: string;
  /** Pixels past the colour threshold; -1: no baseline; -2: another size. */
  differing: number;
  allowed: number;
  /** Written under artifacts/visual/ when it fails. */
  actualPath?: string;
  diffPath?: string;
}

/** Compares a shot with its baseline; a failure writes the actual and the diff image. */
export function compareShot(shot: Shot): Comparison {
  const baselinePath = path.join(baselineDir, shot.key);
  const actual = PNG.sync.read(shot.png);
  const allowed = Math.ceil(actual.width * actual.height * MAX_DIFF_SHARE);
  const failed = (differing: number, diff?: PNG): Comparison => {
    const base = path.join(artifactDir, shot.key.replace(/\.png$/, ''));
    fs.mkdirSync(path.dirname(base), { recursive: true });
    fs.writeFileSync(`${base}.actual.png`, shot.png);
    if (diff) fs.writeFileSync(`${base}.diff.png`, PNG.sync.write(diff));
    return {
      key: shot.key,
      differing,
      allowed,
      actualPath: path.relative(repoRoot, `${base}.actual.png`),
      diffPath: diff ? path.relative(repoRoot, `${base}.diff.png`) : undefined,
    };
  };
  if (!fs.existsSync(baselinePath)) return failed(-1);
  const expected = PNG.sync.read(fs.readFileSync(baselinePath));
  if (expected.width !== actual.width || expected.height !== actual.height) return failed(-2);
  const diff = new PNG({ width: actual.width, height: actual.height });
  const differing = pixelmatch(expected.data, actual.data, diff.data, actual.width, actual.height, {
    threshold: PIXEL_THRESHOLD,
  });
  if (differing > allowed) return failed(differing, diff);
  return { key: shot.key, differing, allowed };
}

/** Writes a shot as its baseline (npm run visual:update). */
export function writeBaseline(shot: Shot): void {
  const file = path.join(baselineDir, shot.key);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, shot.png);
}

/** One line per failed comparison, naming the files to look at. */
export function describeFailure(c: Comparison): string {
  if (c.differing === -1) return `${c.key}: no baseline (actual: ${c.actualPath})`;
  if (c.differing === -2)
    return `${c.key}: another size than its baseline (actual: ${c.actualPath})`;
  return `${c.key}: ${c.differing} pixels differ (allowed ${c.allowed}); actual ${c.actualPath}, diff ${c.diffPath}`;
}
