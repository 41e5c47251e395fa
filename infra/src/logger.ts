import os from 'node:os';
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/**
 * JSON logs; pretty-printed when stdout is a terminal. Every line carries `pid`, `hostname` and
 * `role`, so the lines of two gateways (or two processes of one) can be told apart. `destination`
 * (tests) replaces stdout, always as JSON.
 */
export function createLogger(
  level: string,
  name?: string,
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { pid: process.pid, hostname: os.hostname(), ...(name ? { role: name } : {}) },
  };
  if (destination) return pino(options, destination);
  if (!process.stdout.isTTY) return pino(options);
  return pino({
    ...options,
    transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } },
  });
}
