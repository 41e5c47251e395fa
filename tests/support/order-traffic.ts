import { newTrader, postOrder } from '../load/flood';

/** One answer to a practice order: when, its status (0: no answer), its error code. */
export interface TrafficAnswer {
  at: number;
  status: number;
  code?: string;
}

/**
 * The fault tests' traffic: a new trader (by an invite the operator makes) placing a practice
 * order every 200 ms (the order throttle's rate is 5 a second), each with its own key, recording
 * every answer, until `stop`.
 */
export async function practiceOrderTraffic(apiUrl: string, operatorToken: string) {
  const invite = await fetch(`${apiUrl}/api/ops/invites`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const { code } = (await invite.json()) as { code: string };
  const token = await newTrader(apiUrl, code);
  const answers: TrafficAnswer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await postOrder(
        apiUrl,
        token,
        { amount: 1000, mode: 'practice' },
        AbortSignal.timeout(20_000),
      ).catch(() => null);
      const body = res
        ? ((await res.json().catch(() => ({}))) as { error?: { code?: string } })
        : {};
      answers.push({ at: Date.now(), status: res?.status ?? 0, code: body.error?.code });
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Waits until `ok` (asked every 100 ms), or throws saying `what` did not happen within `ms`. */
export async function waitUntil(
  ok: () => boolean | Promise<boolean>,
  ms: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
