/**
 * Where a webhook may go: an HTTPS URL whose host is, and resolves only to, public addresses. Private, loopback,
 * link-local, unique-local, unspecified and other special ranges are refused, at save and again at each delivery,
 * which then connects to the address it checked (a name that resolves elsewhere a second later changes nothing).
 * With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) any address passes, and plain HTTP to a loopback address too.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export interface Target {
  url: URL;
  /** The checked address the delivery connects to. */
  address: string;
  family: 4 | 6;
}

const REASONS = {
  https: 'only HTTPS URLs are allowed',
  private: 'the host is or resolves to a non-public address',
  unresolved: 'the host name does not resolve',
};

/** Why a URL is refused: not an HTTPS URL, a non-public address, or a name without addresses. */
export class TargetError extends Error {
  constructor(readonly rule: keyof typeof REASONS) {
    super(REASONS[rule]);
  }
}

/** Whether an address is public unicast (ipaddr's `unicast` range; IPv4-mapped IPv6 is judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

const isLoopback = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';

/** The URL parsed, if it is one a webhook may have in form (HTTPS, no credentials); else undefined. */
export function parseWebhookUrl(value: string, allowPrivate: boolean): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password || !url.hostname) return undefined;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && allowPrivate && isLoopback(url.hostname.replace(/^\[|\]$/g, ''))) return url;
  return undefined;
}

/** Resolves and checks a webhook URL; throws TargetError when it may not be called. */
export async function resolveTarget(value: string, allowPrivate: boolean): Promise<Target> {
  const url = parseWebhookUrl(value, allowPrivate);
  if (!url) throw new TargetError('https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: host.includes(':') ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => [] as { address: string; family: number }[]);
  if (!addresses.length) throw new TargetError('unresolved');
  if (!allowPrivate && !addresses.every((a) => isPublicAddress(a.address))) throw new TargetError('private');
  return { url, address: addresses[0].address, family: addresses[0].family === 6 ? 6 : 4 };
}
