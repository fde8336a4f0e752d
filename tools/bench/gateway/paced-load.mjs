// The second load generator of cpu-per-call.mjs (`--client undici`): autocannon's `overallRate` schedule,
// sent by an undici Pool. Each connection sends its share of a second's calls back to back, the next
// request when the last reply is in, and then waits for the next second, as autocannon's clients do; only
// the client differs. The connections outlive a run, so the warm-up's connections are the measurement's.
import { Pool } from 'undici';

/** `{ headers, body }` POSTed to `url` at `rate` calls a second over `connections` keep-alive connections. */
export class PacedLoad {
  constructor(url, { headers, body }, { rate, connections }) {
    const target = new URL(url);
    this.request = { path: `${target.pathname}${target.search}`, method: 'POST', headers, body };
    this.shares = Array.from({ length: connections }, (_, i) => Math.floor(rate / connections) + (i < rate % connections ? 1 : 0));
    this.pool = new Pool(target.origin, { connections, keepAliveTimeout: 600_000, keepAliveMaxTimeout: 600_000 });
  }

  /** `seconds` seconds of the schedule; resolves `{ requests, errors, non2xx }` once the last second is over. */
  async run(seconds) {
    const counts = { requests: 0, errors: 0, non2xx: 0 };
    const started = performance.now();
    for (let second = 0; second < seconds; second += 1) {
      await Promise.all(
        this.shares.map(async (share) => {
          for (let sent = 0; sent < share; sent += 1) await this.send(counts);
        }),
      );
      const nextSecond = started + (second + 1) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, nextSecond - performance.now())));
    }
    return counts;
  }

  async send(counts) {
    try {
      const reply = await this.pool.request(this.request);
      await reply.body.dump();
      counts.requests += 1;
      if (reply.statusCode < 200 || reply.statusCode > 299) counts.non2xx += 1;
    } catch {
      counts.errors += 1;
    }
  }

  close() {
    return this.pool.close();
  }
}
