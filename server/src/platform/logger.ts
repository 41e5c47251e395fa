import pino, { type Logger } from 'pino';

export type { Logger };

/** JSON logs; pretty-printed when stdout is a terminal. */
export function createLogger(level: string, name?: string): Logger {
  const pretty = process.stdout.isTTY;
  return pino({
    level,
    base: name ? { role: name } : {},
    ...(pretty
      ? {
          transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } },
        }
      : {}),
  });
}
