import { parseArgs } from 'node:util';

/** The ops CLI's options, all strings. */
const optionNames = [
  'url',
  'token',
  'code',
  'reason',
  'status',
  'title',
  'body',
  'user',
  'lang',
  'id',
  'opens-at',
  'out',
  'file',
  'name',
  'role',
  'operator',
  'target',
  'cursor',
] as const;
type OptionName = (typeof optionNames)[number];

const known = new Set<string>(optionNames);
/** What reads as an option name: `--` and lower-case letters and dashes (`--opens-at`). */
const optionLike = /^--[a-z][a-z-]*(=|$)/;

/**
 * The ops CLI's command line: positionals (command, action, ids) and options. Ids may begin with
 * a dash (upload ids are base64url: one in 32 starts with "-"), so a word is an option only when
 * it reads as one; an option's value is taken as it stands, dash or not ("--reason -1 day").
 * An unknown option is refused, as parseArgs refuses it.
 */
export function parseOpsArgs(argv: readonly string[]): {
  positionals: string[];
  values: Partial<Record<OptionName, string>>;
} {
  const options: string[] = [];
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!optionLike.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const [name] = arg.slice(2).split('=', 1);
    if (!arg.includes('=') && known.has(name!) && i + 1 < argv.length)
      options.push(`${arg}=${argv[++i]}`);
    else options.push(arg);
  }
  const { values } = parseArgs({
    args: options,
    options: Object.fromEntries(optionNames.map((n) => [n, { type: 'string' as const }])),
  });
  return { positionals, values };
}
