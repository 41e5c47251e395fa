/** One `time` round trip: local send and receive times and the server's answer, epoch ms. */
export interface ClockSample {
  sentAt: number;
  receivedAt: number;
  serverTime: number;
}

/**
 * The server clock as seen from here. Countdowns and "now" on charts must follow the server, not
 * a phone clock that may be minutes off. `hello` gives a first guess (one-way delay unknown);
 * each `time` round trip gives offset = serverTime − midpoint of the trip. Of the last few
 * samples the one with the shortest round trip wins: its midpoint guess has the smallest error.
 */
export class ServerClock {
  private offset = 0;
  private samples: { offset: number; rtt: number }[] = [];

  constructor(private readonly keep = 5) {}

  /** The `hello` on connect; only used until a round trip has been measured. */
  hello(serverTime: number, receivedAt: number): void {
    if (this.samples.length === 0) this.offset = serverTime - receivedAt;
  }

  sample({ sentAt, receivedAt, serverTime }: ClockSample): void {
    const rtt = receivedAt - sentAt;
    if (rtt < 0) return;
    this.samples.push({ offset: serverTime - (sentAt + rtt / 2), rtt });
    if (this.samples.length > this.keep) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.offset = Math.round(best.offset);
  }

  /** Milliseconds to add to the local clock to read the server's. */
  offsetMs(): number {
    return this.offset;
  }

  now(localNow: number = Date.now()): number {
    return localNow + this.offset;
  }
}
