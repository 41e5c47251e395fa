import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Replays a Dockerfile's stages in plain directories, without a Docker engine: each stage's
 * WORKDIR is a directory of its own, COPY copies from the build context (minus .dockerignore)
 * or from an earlier stage, RUN runs in a shell there with the stage's ENV. USER, EXPOSE and
 * HEALTHCHECK change nothing here; CMD is returned for the caller to start. It supports the
 * instructions our Dockerfile uses and fails on any other, so a new one cannot pass unreplayed.
 */
export interface ReplayedImage {
  /** The last stage's directory (its WORKDIR). */
  dir: string;
  env: Record<string, string>;
  cmd: string[];
  /** Each instruction as it was replayed, for the test's log. */
  steps: string[];
}

export function replayDockerfile(
  context: string,
  into: string,
  runEnv: Record<string, string> = {},
): ReplayedImage {
  const text = fs.readFileSync(path.join(context, 'Dockerfile'), 'utf8');
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const ignored = fs
    .readFileSync(path.join(context, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const isIgnored = (rel: string) =>
    ignored.some((p) =>
      p.startsWith('*.') ? rel.endsWith(p.slice(1)) : rel === p || rel.startsWith(`${p}/`),
    );

  const stages = new Map<string, string>();
  let dir = '';
  let env: Record<string, string> = {};
  let cmd: string[] = [];
  let n = 0;
  const steps: string[] = [];
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    steps.push(line);
    switch (op) {
      case 'FROM': {
        const alias = /\bAS\s+(\S+)/i.exec(args)?.[1] ?? `stage${n}`;
        dir = path.join(into, `${n++}-${alias}`);
        fs.mkdirSync(dir, { recursive: true });
        stages.set(alias, dir);
        env = {};
        break;
      }
      case 'WORKDIR':
        break; // each stage's directory is its WORKDIR (/app)
      case 'ENV': {
        const [k, ...v] = args.split(/[=\s]/);
        env[k!] = v.join('=').trim();
        break;
      }
      case 'COPY': {
        const from = /^--from=(\S+)\s+/.exec(args);
        const parts = (from ? args.slice(from[0].length) : args).split(/\s+/);
        const dest = path.join(dir, parts.pop()!.replace(/^\/app\/?/, ''));
        const root = from ? stages.get(from[1]!)! : context;
        for (const src of parts) {
          const abs = path.join(root, src.replace(/^\/app\/?/, ''));
          if (src === '.') {
            fs.cpSync(abs, dest, {
              recursive: true,
              filter: (s) => !isIgnored(path.relative(root, s)),
            });
          } else if (fs.statSync(abs).isDirectory()) {
            fs.cpSync(abs, path.join(dest, parts.length === 1 ? '' : path.basename(abs)), {
              recursive: true,
            });
          } else {
            fs.mkdirSync(dest, { recursive: true });
            fs.copyFileSync(abs, path.join(dest, path.basename(abs)));
          }
        }
        break;
      }
      case 'RUN': {
        // The image's /app is this directory: a command naming it runs here instead.
        const command = args.replace(/\/app\b/g, dir);
        execFileSync('sh', ['-c', command], {
          cwd: dir,
          env: { ...process.env, ...runEnv, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
          maxBuffer: 64 * 1024 * 1024,
        });
        break;
      }
      case 'USER':
      case 'EXPOSE':
      case 'HEALTHCHECK':
        break;
      case 'CMD':
        cmd = JSON.parse(args) as string[];
        break;
      default:
        throw new Error(`the replay does not know the Dockerfile instruction ${op}`);
    }
  }
  return { dir, env, cmd, steps };
}
