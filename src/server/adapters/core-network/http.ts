import type { CoreNetworkTransport } from './index';

/**
 * A core-network gateway over HTTP: `POST {url}/{operation}` with the request as JSON (and `requestId`);
 * the gateway answers `{ ok, detail?, data? }`. No answer within 10 s is a failure, as on the network itself.
 */
export function createHttpTransport(url: string): CoreNetworkTransport {
  const base = url.replace(/\/+$/, '');
  return {
    async deliver(request, requestId) {
      const res = await fetch(`${base}/${request.operation}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestId, ...request }),
        signal: AbortSignal.timeout(10000),
      });
      if (!res.ok) return { ok: false, detail: `gateway answered ${res.status}` };
      const body = (await res.json()) as { ok?: boolean; detail?: string; data?: Record<string, unknown> };
      return { ok: body.ok === true, detail: body.detail, data: body.data };
    },
  };
}
