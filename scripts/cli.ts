/** A usage mistake: the command prints it with the usage and exits 2. */
export class UsageError extends Error {}

/**
 * Runs a command line's `main`: exits with the code it answers; on a usage mistake (UsageError
 * or node:util parseArgs' own) prints it with `usage` and exits 2; on any other failure prints
 * `name: message` and exits 1.
 */
export function runCli(name: string, usage: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (
        err instanceof UsageError ||
        (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
      ) {
        console.error(`${(err as Error).message}\n${usage}`);
        process.exit(2);
      }
      console.error(`${name}: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
