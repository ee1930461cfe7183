import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, apiToken, startPortal, type Portal } from './harness';

/**
 * A bulk job survives a crash: the server process is killed (SIGKILL, no shutdown) while a job is half done, a new
 * process starts on the same database, and the job finishes with every subscriber changed exactly once.
 */
describe('a bulk job after the server is killed', () => {
  // One subscriber per chunk, so the job is surely between two chunks when the process dies.
  const env = { JOB_CHUNK: '1', DEMO_SUBSCRIBERS: '400', CORE_NETWORK_FAILURE_RATE: '0' };
  let portal: Portal | undefined;
  afterAll(async () => {
    await portal?.stop();
  });

  async function api<T>(method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: T }> {
    const res = await fetch(`${portal!.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as T };
  }
  const signIn = () => apiToken(portal!, 'admin', ADMIN_PASSWORD);

  it('resumes on restart and applies every subscriber once', async () => {
    portal = await startPortal(env);
    let token = await signIn();
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const limit = 987654321;
    const started = await api<{ jobId: number; total: number }>('POST', '/portal/subscribers/bulk', token, {
      action: 'daily-limit',
      params: { dailyLimitBytes: limit, qosThrottling: '128kbps' },
      selection: { ids },
    });
    expect(started.status).toBe(202);
    const { jobId } = started.json;

    // Killed as soon as some chunks are done and some are not.
    let progress = { succeeded: 0, total: ids.length, status: 'queued' };
    while (progress.succeeded === 0) progress = (await api<typeof progress>('GET', `/portal/jobs/${jobId}`, token)).json;
    await portal.kill();
    expect(progress.status).toBe('running');
    expect(progress.succeeded).toBeLessThan(ids.length);

    portal = await startPortal(env, portal.dataDir);
    token = await signIn();
    const deadline = Date.now() + 60000;
    do {
      progress = (await api<typeof progress>('GET', `/portal/jobs/${jobId}`, token)).json;
      if (progress.status !== 'done') await new Promise((r) => setTimeout(r, 200));
    } while (progress.status !== 'done' && Date.now() < deadline);
    expect(progress).toMatchObject({ status: 'done', succeeded: ids.length, failed: 0, skipped: 0, total: ids.length });

    for (const id of ids) {
      const subscriber = (await api<{ dailyLimitBytes: number; qosThrottling: string }>('GET', `/portal/subscribers/${id}`, token)).json;
      expect(subscriber, `subscriber ${id}`).toMatchObject({ dailyLimitBytes: limit, qosThrottling: '128kbps' });
      const audit = (await api<{ action: string; after: { dailyLimitBytes?: number } }[]>('GET', `/portal/subscriber-info/audit-logs/${id}`, token)).json;
      expect(
        audit.filter((a) => a.action === 'daily-limit' && a.after?.dailyLimitBytes === limit),
        `audit of subscriber ${id}`,
      ).toHaveLength(1);
    }
  });
});
