/**
 * The operator CLI: `npm run ops -- <group> <action> [args] [--flags]`. A thin client of the
 * /api/ops endpoints. The server comes from --url, OPS_URL or http://127.0.0.1:$PORT (3000); the
 * token from --token, OPERATOR_TOKEN or the file an embedded start wrote (DATA_DIR/operator-token).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseOpsArgs } from './ops-args';

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; body?: unknown };
type Command = {
  usage: string;
  build: (args: string[], flags: Record<string, string | undefined>) => Call;
  /** Lines for the operator's attention about a successful answer, printed to stderr. */
  notes?: (answer: unknown) => string[];
  /**
   * Problems a successful answer reports (an empty list: none). Any → printed to stderr and exit
   * code 1, so a scheduled run (cron, a Kubernetes CronJob) can alert on it.
   */
  problems?: (answer: unknown) => string[];
  /** The answer is a file (an image), written to `--out` rather than printed. */
  file?: boolean;
};

const need = (value: string | undefined, what: string): string => {
  if (!value) throw new Error(`missing ${what}`);
  return value;
};

/** `?a=1&b=2` of the flags given (none: no query). */
const queryOf = (flags: Record<string, string | undefined>, names: Record<string, string>) => {
  const q = new URLSearchParams();
  for (const [flag, param] of Object.entries(names)) if (flags[flag]) q.set(param, flags[flag]);
  return q.size ? `?${q}` : '';
};

/** An operator's id in a path. */
const operatorPath = (id: string | undefined, rest: string) =>
  `/api/ops/operators/${encodeURIComponent(need(id, 'operatorId'))}/${rest}`;

/** A JSON file's content, for a command whose body is a whole set (banners, highlights). */
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(file, 'utf8'));

const review = (kind: string, notes?: (answer: unknown) => string[]): Record<string, Command> => ({
  list: {
    usage: `${kind} list [--status pending]`,
    build: (_a, f) => ({ method: 'GET', path: `/api/ops/${kind}?status=${f.status ?? 'pending'}` }),
    notes,
  },
  approve: {
    usage: `${kind} approve <id>`,
    build: (a) => ({
      method: 'POST',
      path: `/api/ops/${kind}/${need(a[0], 'id')}/approve`,
      body: {},
    }),
    notes,
  },
  reject: {
    usage: `${kind} reject <id> --reason "…"`,
    build: (a, f) => ({
      method: 'POST',
      path: `/api/ops/${kind}/${need(a[0], 'id')}/reject`,
      body: { reason: need(f.reason, '--reason') },
    }),
    notes,
  },
});

interface IdentityCheck {
  id: string;
  userId: string;
  userAccount: string;
  sameIdNumber?: { userId: string; userAccount: string; status: string }[];
}

/**
 * Identity checks whose ID number another account holds (under review or verified): the JSON
 * says so in `sameIdNumber`; this puts it where an operator cannot miss it. The operator decides.
 */
function sameIdNumberNotes(answer: unknown): string[] {
  const page = answer as { items?: IdentityCheck[] };
  const checks = page.items ?? [answer as IdentityCheck];
  return checks.flatMap((k) => {
    const others = (k.sameIdNumber ?? []).map(
      (o) => `${o.userAccount} (user ${o.userId}, ${o.status})`,
    );
    return others.length
      ? [
          `note: identity check ${k.id} of ${k.userAccount} (user ${k.userId}): the same ID number is on ${others.join(', ')}`,
        ]
      : [];
  });
}

/** What GET /api/ops/ledger/check found wrong; an answer of another shape is a problem too. */
export function ledgerProblems(answer: unknown): string[] {
  const check = answer as { ok?: unknown; problems?: unknown };
  if (check?.ok === true) return [];
  const listed = Array.isArray(check?.problems) ? check.problems.map(String) : [];
  return ['ledger check failed: ok is not true', ...listed.map((p) => `problem: ${p}`)];
}

export const commands: Record<string, Record<string, Command>> = {
  invites: {
    create: {
      usage: 'invites create [--code CODE]',
      build: (_a, f) => ({
        method: 'POST',
        path: '/api/ops/invites',
        body: f.code ? { code: f.code } : {},
      }),
    },
  },
  users: {
    'credit-score': {
      usage: 'users credit-score <userId> <score> [--reason "…"]',
      build: (a, f) => ({
        method: 'POST',
        path: `/api/ops/users/${need(a[0], 'userId')}/credit-score`,
        body: { score: Number(need(a[1], 'score')), ...(f.reason ? { reason: f.reason } : {}) },
      }),
    },
    freeze: {
      usage: 'users freeze <userId> --reason "…"   (no login, orders, withdrawals or transfers)',
      build: (a, f) => ({
        method: 'POST',
        path: `/api/ops/users/${need(a[0], 'userId')}/freeze`,
        body: { reason: need(f.reason, '--reason') },
      }),
    },
    unfreeze: {
      usage: 'users unfreeze <userId> --reason "…"',
      build: (a, f) => ({
        method: 'POST',
        path: `/api/ops/users/${need(a[0], 'userId')}/unfreeze`,
        body: { reason: need(f.reason, '--reason') },
      }),
    },
  },
  operators: {
    create: {
      usage: 'operators create --name NAME --role reviewer|support|admin',
      build: (_a, f) => ({
        method: 'POST',
        path: '/api/ops/operators',
        body: { name: need(f.name, '--name'), role: need(f.role, '--role') },
      }),
      notes: () => [
        'note: hand the password and the TOTP secret (or the otpauth URI as a QR code) to the operator',
        'note: over a safe channel; they are not shown again (a lost one: create a new operator).',
      ],
    },
    list: {
      usage: 'operators list   (ids, roles, disabled or not, live sessions)',
      build: () => ({ method: 'GET', path: '/api/ops/operators' }),
    },
    disable: {
      usage: 'operators disable <operatorId> --reason "…"   (their sessions end at once)',
      build: (a, f) => ({
        method: 'POST',
        path: operatorPath(a[0], 'disable'),
        body: { reason: need(f.reason, '--reason') },
      }),
    },
    enable: {
      usage: 'operators enable <operatorId> --reason "…"',
      build: (a, f) => ({
        method: 'POST',
        path: operatorPath(a[0], 'enable'),
        body: { reason: need(f.reason, '--reason') },
      }),
    },
    role: {
      usage: 'operators role <operatorId> reviewer|support|admin [--reason "…"]',
      build: (a, f) => ({
        method: 'POST',
        path: operatorPath(a[0], 'role'),
        body: { role: need(a[1], 'role'), ...(f.reason ? { reason: f.reason } : {}) },
      }),
    },
    'end-sessions': {
      usage: 'operators end-sessions <operatorId>   (they sign in again)',
      build: (a) => ({ method: 'DELETE', path: operatorPath(a[0], 'sessions') }),
    },
  },
  audit: {
    list: {
      usage: 'audit list [--operator NAME] [--target user=7] [--cursor <nextCursor>]',
      build: (_a, f) => ({
        method: 'GET',
        path: `/api/ops/audit${queryOf(f, { operator: 'operator', target: 'target', cursor: 'cursor' })}`,
      }),
    },
  },
  access: {
    list: {
      usage:
        "access list [--operator NAME] [--user <userId>] [--cursor <nextCursor>]   (operators' reads of personal data)",
      build: (_a, f) => ({
        method: 'GET',
        path: `/api/ops/access-log${queryOf(f, { operator: 'operator', user: 'user', cursor: 'cursor' })}`,
      }),
    },
  },
  products: {
    maintenance: {
      usage: 'products maintenance <productId> on|off [--opens-at 2026-12-01T08:00:00Z]',
      build: (a, f) => {
        const state = need(a[1], 'on|off');
        if (state !== 'on' && state !== 'off') throw new Error(`expected on or off, not ${state}`);
        const opensAt = f['opens-at'] === undefined ? undefined : Date.parse(f['opens-at']);
        if (opensAt !== undefined && Number.isNaN(opensAt))
          throw new Error(`--opens-at: not a date and time: ${f['opens-at']}`);
        return {
          method: 'POST',
          path: `/api/ops/products/${encodeURIComponent(need(a[0], 'productId'))}/maintenance`,
          body: { on: state === 'on', ...(opensAt === undefined ? {} : { opensAt }) },
        };
      },
    },
  },
  deposits: review('deposits'),
  withdrawals: review('withdrawals'),
  kyc: review('kyc', sameIdNumberNotes),
  messages: {
    send: {
      usage: 'messages send --title "…" --body "…" [--user <userId>]   (no --user: every user)',
      build: (_a, f) => ({
        method: 'POST',
        path: '/api/ops/messages',
        body: {
          title: need(f.title, '--title'),
          body: need(f.body, '--body'),
          ...(f.user ? { userId: f.user } : {}),
        },
      }),
    },
  },
  news: {
    publish: {
      usage: 'news publish --lang zh-CN --title "…" --body "…" [--id <newsId> (adds a language)]',
      build: (_a, f) => ({
        method: 'POST',
        path: '/api/ops/news',
        body: {
          lang: need(f.lang, '--lang'),
          title: need(f.title, '--title'),
          body: need(f.body, '--body'),
          ...(f.id ? { newsId: f.id } : {}),
        },
      }),
    },
  },
  pages: {
    set: {
      usage:
        'pages set <about|privacy|privacy-2|rules|savings-rules> --lang en --title "…" --body "…"',
      build: (a, f) => ({
        method: 'PUT',
        path: `/api/ops/pages/${encodeURIComponent(need(a[0], 'slug'))}`,
        body: {
          lang: need(f.lang, '--lang'),
          title: need(f.title, '--title'),
          body: need(f.body, '--body'),
        },
      }),
    },
  },
  banners: {
    set: {
      usage: "banners set <lang> --file banners.json   (the language's whole set, in order)",
      build: (a, f) => ({
        method: 'PUT',
        path: `/api/ops/banners/${encodeURIComponent(need(a[0], 'lang'))}`,
        body: readJson(need(f.file, '--file')),
      }),
    },
  },
  highlights: {
    set: {
      usage: "highlights set <lang> --file highlights.json   (the language's whole set, in order)",
      build: (a, f) => ({
        method: 'PUT',
        path: `/api/ops/highlights/${encodeURIComponent(need(a[0], 'lang'))}`,
        body: readJson(need(f.file, '--file')),
      }),
    },
  },
  content: {
    seed: {
      usage: 'content seed   (the default banners, highlights, news and pages, once per database)',
      build: () => ({ method: 'POST', path: '/api/ops/content/seed', body: {} }),
    },
  },
  uploads: {
    get: {
      usage: 'uploads get <uploadId> --out <file>   (a screenshot or an ID photo)',
      build: (a, f) => {
        need(f.out, '--out');
        const id = need(a[0], 'uploadId');
        return { method: 'GET', path: `/api/uploads/${encodeURIComponent(id)}` };
      },
      file: true,
    },
  },
  ledger: {
    check: {
      usage: 'ledger check   (exit code 1 when the check finds a problem)',
      build: () => ({ method: 'GET', path: '/api/ops/ledger/check' }),
      problems: ledgerProblems,
    },
  },
  house: {
    figures: {
      usage: 'house figures',
      build: () => ({ method: 'GET', path: '/api/ops/house' }),
    },
  },
};

function usage(): string {
  return [
    'usage: npm run ops -- <command> [--url URL] [--token TOKEN]',
    ...Object.values(commands).flatMap((g) => Object.values(g).map((c) => `  ${c.usage}`)),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseOpsArgs(argv);
  const [group, action, ...rest] = positionals;
  const command = group && action ? commands[group]?.[action] : undefined;
  if (!command) {
    console.error(usage());
    return 2;
  }
  // 127.0.0.1, not localhost: the embedded app listens on IPv4 loopback, and localhost may
  // resolve to ::1 first.
  const url = values.url || process.env.OPS_URL || `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const tokenFile = path.join(process.env.DATA_DIR ?? './data', 'operator-token');
  const token =
    values.token ||
    process.env.OPERATOR_TOKEN ||
    (fs.existsSync(tokenFile) ? fs.readFileSync(tokenFile, 'utf8').trim() : undefined);
  if (!token) {
    console.error(
      `no operator token: pass --token, set OPERATOR_TOKEN, or run where ${tokenFile} exists`,
    );
    return 2;
  }
  const call = command.build(rest, values);
  const res = await fetch(new URL(call.path, url), {
    method: call.method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(call.body ? { 'content-type': 'application/json' } : {}),
    },
    body: call.body ? JSON.stringify(call.body) : undefined,
  });
  if (command.file && res.ok) {
    // Never over an existing file: an operator's typo must not destroy evidence or anything else.
    const out = need(values.out, '--out');
    const bytes = Buffer.from(await res.arrayBuffer());
    fs.writeFileSync(out, bytes, { flag: 'wx', mode: 0o600 });
    const type = res.headers.get('content-type');
    console.log(JSON.stringify({ out, bytes: bytes.length, contentType: type }, null, 2));
    return 0;
  }
  const text = await res.text();
  const answer: unknown = text ? JSON.parse(text) : undefined;
  const out = text ? JSON.stringify(answer, null, 2) : `${res.status} ${res.statusText}`;
  (res.ok ? console.log : console.error)(out);
  if (!res.ok) return 1;
  for (const note of answer === undefined ? [] : (command.notes?.(answer) ?? []))
    console.error(note);
  const problems = command.problems?.(answer) ?? [];
  for (const problem of problems) console.error(problem);
  return problems.length ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error((err as Error).message);
    console.error(usage());
    process.exit(2);
  },
);
