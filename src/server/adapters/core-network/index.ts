import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import { batcher } from '../../jobs/batcher';
import { createHttpTransport } from './http';
import { CORE_NETWORK_OPERATIONS, type CoreNetworkOperation } from './operations';
import { createSimulator, type SimulatorControls, type SimulatorSettings } from './simulator';
import type { Database, NetworkEvent } from '../../db/types';

export { CORE_NETWORK_OPERATIONS, type CoreNetworkOperation, type SmsPayload, type SpeedPayload } from './operations';

/** One request to the core network. */
export interface CoreNetworkRequest {
  operation: CoreNetworkOperation;
  /** The reseller on whose behalf it goes out (the event log's tenancy); null for the provider's own. */
  resellerId: number | null;
  imsi?: string;
  /** The network concerned (MCC + MNC). */
  plmn?: string;
  subscriberId?: number;
  /** What the request is about, for the log, e.g. `allowed-list:<uuid>`. */
  subject?: string;
  payload?: Record<string, unknown>;
}

/** The network's answer. A failure is an answer too (`ok: false`), never a thrown error. */
export interface CoreNetworkAnswer {
  requestId: string;
  ok: boolean;
  /** Why it failed, or what the network reported. */
  detail?: string;
  data?: Record<string, unknown>;
}

/** What actually carries a request: the simulator by default, HTTP to a gateway when configured. */
export interface CoreNetworkTransport {
  deliver(request: CoreNetworkRequest, requestId: string): Promise<Omit<CoreNetworkAnswer, 'requestId'>>;
}

export interface CoreNetwork {
  /** Sends a request and resolves with the answer, which arrives asynchronously. */
  send(request: CoreNetworkRequest): Promise<CoreNetworkAnswer>;
  /**
   * Sends without waiting: `onAnswer` runs when the answer arrives (e.g. moves a state from pending to final).
   * Its work counts as in flight for `idle()`; its errors are logged.
   */
  dispatch(request: CoreNetworkRequest, onAnswer: (answer: CoreNetworkAnswer) => Promise<void>): void;
  /** Resolves once nothing is in flight (tests; shutdown waits for it). */
  idle(): Promise<void>;
  /** Present when the simulator carries the requests: the switches tests use to make the network fail. */
  simulator?: SimulatorControls;
}

export interface CoreNetworkSettings {
  /** Base URL of a core-network gateway; absent: the local simulator. */
  url?: string;
  simulator?: SimulatorSettings;
  /**
   * Requests in flight at once; more wait their turn. Default: 4096 with the simulator (a core network answers
   * many subscribers in parallel; each request only waits for its answer), 256 to a gateway.
   */
  concurrency?: number;
}

/** Events recorded per insert: answers arriving together are logged together. */
const EVENT_BATCH = 500;

/**
 * The core network behind one interface: every request is queued (bounded concurrency), carried by the
 * transport, and recorded in `network_event` with its answer, whichever transport is used (answers arriving
 * together are recorded in one insert; a request's answer is handed on once its event is stored).
 */
export function createCoreNetwork(db: Kysely<Database>, log: FastifyBaseLogger, settings: CoreNetworkSettings = {}): CoreNetwork {
  const simulator = settings.url ? undefined : createSimulator(settings.simulator);
  const transport: CoreNetworkTransport = simulator ?? createHttpTransport(settings.url!);
  const limit = Math.max(1, settings.concurrency ?? (simulator ? 4096 : 256));
  const inFlight = new Set<Promise<unknown>>();
  // Requests waiting for a slot, oldest first (a bulk action queues many: taken from `head`, not shifted).
  let waiting: (() => void)[] = [];
  let head = 0;
  let running = 0;

  async function slot<T>(fn: () => Promise<T>): Promise<T> {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await fn();
    } finally {
      running -= 1;
      const next = waiting[head];
      if (next) {
        head += 1;
        if (head === waiting.length) [waiting, head] = [[], 0];
        next();
      }
    }
  }

  const record = batcher<Insertable<NetworkEvent>>(async (events) => {
    await db.insertInto('networkEvent').values(events).execute();
  }, EVENT_BATCH);

  function track<T>(promise: Promise<T>): Promise<T> {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise)).catch(() => undefined);
    return promise;
  }

  async function exchange(request: CoreNetworkRequest): Promise<CoreNetworkAnswer> {
    const requestId = randomUUID();
    const answer = await slot(async () => {
      try {
        return { requestId, ...(await transport.deliver(request, requestId)) };
      } catch (e) {
        return { requestId, ok: false, detail: e instanceof Error ? e.message : String(e) };
      }
    });
    await record({
      requestId,
      protocol: CORE_NETWORK_OPERATIONS[request.operation].protocol,
      operation: request.operation,
      imsi: request.imsi ?? null,
      plmn: request.plmn ?? null,
      result: answer.ok ? 'success' : 'failure',
      detail: answer.detail ?? CORE_NETWORK_OPERATIONS[request.operation].summary,
      resellerId: request.resellerId,
      subscriberId: request.subscriberId ?? null,
      subject: request.subject ?? null,
    });
    return answer;
  }

  return {
    send: (request) => track(exchange(request)),
    dispatch(request, onAnswer) {
      track(exchange(request).then(onAnswer)).catch((e) => log.error({ err: e, operation: request.operation }, 'core-network answer not applied'));
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    simulator,
  };
}
