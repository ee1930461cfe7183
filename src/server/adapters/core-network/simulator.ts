import type { CoreNetworkRequest, CoreNetworkTransport } from './index';
import { CORE_NETWORK_OPERATIONS, type OperationSpec, type SpeedPayload } from './operations';

export interface SimulatorSettings {
  /** Share of requests that fail, 0 to 1 (CORE_NETWORK_FAILURE_RATE; default 0.03, as a busy network does). */
  failureRate?: number;
  /** Answer delay range in milliseconds (CORE_NETWORK_DELAY_MS, "min-max"; default 200-1200). */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Random source, replaceable for repeatable runs. */
  random?: () => number;
}

/** Switches a test uses to make the network fail on demand. */
export interface SimulatorControls {
  /** The next `count` requests fail (with `detail`, or a typical network error). */
  failNext(count?: number, detail?: string): void;
  /** Every request fails while true. */
  setOutage(down: boolean): void;
  setFailureRate(rate: number): void;
  /** Holds every answer back until `resume()`, to look at requests in flight. */
  pause(): void;
  resume(): void;
  /** Requests received so far, oldest first (the last 10,000 or more). */
  readonly received: readonly CoreNetworkRequest[];
  /** The speed limit each IMSI holds now, as the last successful `setSpeed` left it (absent: never set). */
  readonly speeds: ReadonlyMap<string, SpeedPayload>;
}

/** The errors a real core network gives back, one picked at random for a simulated failure. */
const NETWORK_ERRORS = [
  'timeout: no answer from the HSS within 10 s',
  'Diameter 3002 DIAMETER_UNABLE_TO_DELIVER',
  'Diameter 5012 DIAMETER_UNABLE_TO_COMPLY',
  'MAP error 34: system failure',
];

/**
 * The core network on one machine: accepts every known operation, answers after a random delay, and fails
 * now and then like a real network, or on demand.
 */
export function createSimulator(settings: SimulatorSettings = {}): CoreNetworkTransport & SimulatorControls {
  const random = settings.random ?? Math.random;
  const min = settings.minDelayMs ?? 200;
  const max = Math.max(min, settings.maxDelayMs ?? 1200);
  let failureRate = settings.failureRate ?? 0.03;
  let forced: { count: number; detail?: string } = { count: 0 };
  let outage = false;
  const received: CoreNetworkRequest[] = [];
  const speeds = new Map<string, SpeedPayload>();
  let paused: { promise: Promise<void>; release: () => void } | undefined;

  return {
    received,
    speeds,
    failNext(count = 1, detail) {
      forced = { count, detail };
    },
    setOutage(down) {
      outage = down;
    },
    setFailureRate(rate) {
      failureRate = rate;
    },
    pause() {
      if (paused) return;
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      paused = { promise, release };
    },
    resume() {
      paused?.release();
      paused = undefined;
    },
    async deliver(request) {
      received.push(request);
      // The last 10,000 at least (trimmed now and then, not on every request).
      if (received.length > 20000) received.splice(0, received.length - 10000);
      // Decide when the request is received, so a switch applies to the requests sent after it.
      // An operation with failures of its own (OTA delivery, absent subscriber) fails with one of them.
      const errors = (CORE_NETWORK_OPERATIONS[request.operation] as OperationSpec).failures ?? NETWORK_ERRORS;
      let failure: string | undefined;
      if (forced.count > 0) {
        forced.count -= 1;
        failure = forced.detail ?? errors[0];
      } else if (outage || random() < failureRate) {
        failure = errors[Math.floor(random() * errors.length)];
      }
      await new Promise((resolve) => setTimeout(resolve, min + random() * (max - min)));
      await paused?.promise;
      if (failure) return { ok: false, detail: failure };
      // The HSS profile keeps what was written: a later `setSpeed` replaces it.
      if (request.operation === 'setSpeed' && request.imsi) speeds.set(request.imsi, request.payload as SpeedPayload);
      return { ok: true };
    },
  };
}

/** Reads "min-max" or a single number of milliseconds. */
export function parseDelay(value: string | undefined): Pick<SimulatorSettings, 'minDelayMs' | 'maxDelayMs'> {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(value ?? '');
  if (!m) return {};
  return { minDelayMs: Number(m[1]), maxDelayMs: Number(m[2] ?? m[1]) };
}
