import { describe, expect, it } from 'vitest';
import { asRequest, DatabaseBusy, FairQueue } from './queue';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A request's turn: it waits for the connection, notes its name when it has it, and holds it for `ms`. */
function request(queue: FairQueue, name: string, served: string[], ms = 5) {
  return asRequest(async () => {
    const release = await queue.acquire();
    served.push(name);
    await sleep(ms);
    release();
  });
}

describe('FairQueue', () => {
  it('serves waiting requests first come, first served', async () => {
    const queue = new FairQueue(1, { limit: 100, waitMs: 5000 });
    const served: string[] = [];
    const names = Array.from({ length: 20 }, (_, i) => `r${i}`);
    await Promise.all(names.map((name) => request(queue, name, served, 1)));
    expect(served).toEqual(names);
  });

  it('refuses at once past its limit, saying when to try again', async () => {
    const queue = new FairQueue(1, { limit: 2, waitMs: 2500 });
    const served: string[] = [];
    const holder = request(queue, 'holder', served, 50);
    await sleep(0);
    const waiting = [request(queue, 'a', served), request(queue, 'b', served)];
    const started = performance.now();
    const refused = await request(queue, 'c', served).catch((e) => e);
    expect(performance.now() - started).toBeLessThan(200);
    expect(refused).toBeInstanceOf(DatabaseBusy);
    expect(refused).toMatchObject({ reason: 'full', retryAfterSeconds: 3 });
    expect(queue.counts.refusedFull).toBe(1);
    await Promise.all([holder, ...waiting]);
    expect(served).toEqual(['holder', 'a', 'b']);
    expect(queue.waiting).toBe(0);
  });

  it('refuses a request that waited its time, and serves the next one in line', async () => {
    const queue = new FairQueue(1, { limit: 10, waitMs: 40 });
    const served: string[] = [];
    const holder = request(queue, 'holder', served, 100);
    await sleep(0);
    const started = performance.now();
    const late = await request(queue, 'late', served).catch((e) => e);
    const waited = performance.now() - started;
    expect(late).toMatchObject({ reason: 'waited', retryAfterSeconds: 1 });
    expect(waited).toBeGreaterThanOrEqual(35);
    await holder;
    queue.configure({ waitMs: 1000 });
    await request(queue, 'next', served);
    expect(served).toEqual(['holder', 'next']);
  });

  it('lets work outside a request wait without limit', async () => {
    const queue = new FairQueue(1, { limit: 1, waitMs: 10 });
    const release = await queue.acquire();
    const background = [queue.acquire(), queue.acquire(), queue.acquire()];
    await sleep(30);
    release();
    for (const waiting of background) (await waiting)();
    expect(queue.counts).toEqual({ refusedFull: 0, refusedWaited: 0 });
  });

  it('shares its connections: up to its capacity at once', async () => {
    const queue = new FairQueue(3, { limit: 100, waitMs: 5000 });
    let busy = 0;
    let most = 0;
    await Promise.all(
      Array.from({ length: 12 }, () =>
        asRequest(async () => {
          const release = await queue.acquire();
          most = Math.max(most, ++busy);
          await sleep(3);
          busy--;
          release();
        }),
      ),
    );
    expect(most).toBe(3);
  });

  it('serves the next statement of a request under way before requests not yet started, past the line and its wait', async () => {
    const queue = new FairQueue(1, { limit: 3, waitMs: 100 });
    const served: string[] = [];
    // A request of three statements, each holding the connection 40 ms: 120 ms in all, past the wait of 100 ms.
    const long = asRequest(async () => {
      for (const step of ['long 1', 'long 2', 'long 3']) {
        const release = await queue.acquire();
        served.push(step);
        await sleep(40);
        release();
      }
    });
    await sleep(0);
    // Three newer requests fill the line while it runs; the first of them waits its 100 ms and is refused.
    const newer = ['a', 'b', 'c'].map((name) => request(queue, name, served).catch((e: unknown) => e));
    await long;
    expect(served).toEqual(['long 1', 'long 2', 'long 3']);
    const outcomes = await Promise.all(newer);
    expect(outcomes.every((o) => o instanceof DatabaseBusy)).toBe(true);
    expect(queue.counts.refusedFull).toBe(0);
  });
});
