/**
 * Migration of subscribers to the external core platform, behind one interface: a local simulator by default,
 * HTTP to the platform's gateway when a URL is set. A migration answers success or an error with its reason;
 * it never throws.
 */
export interface MigrationRequest {
  subscriberId: number;
  imsi: string;
  iccid: string;
}

export interface MigrationAnswer {
  ok: boolean;
  detail?: string;
}

export interface MigrationPlatform {
  migrate(request: MigrationRequest): Promise<MigrationAnswer>;
  /** Present when the simulator answers: switches tests use to make migrations fail. */
  simulator?: MigrationSimulatorControls;
}

export interface MigrationSimulatorControls {
  /** The next `count` migrations fail (with `detail`, or the platform's usual error). */
  failNext(count?: number, detail?: string): void;
  /** Every migration fails while true. */
  setOutage(down: boolean): void;
  /** Migrations received so far, oldest first. */
  readonly received: readonly MigrationRequest[];
}

export interface MigrationSettings {
  /** Base URL of the platform's migration gateway; absent: the simulator. */
  url?: string;
  /** Simulator answer delay in ms (default 20). */
  delayMs?: number;
}

const PLATFORM_ERROR = 'migration refused by the target platform: subscriber profile not provisioned';

function createSimulator(delayMs: number): MigrationPlatform & { simulator: MigrationSimulatorControls } {
  let forced: { count: number; detail?: string } = { count: 0 };
  let outage = false;
  const received: MigrationRequest[] = [];
  return {
    simulator: {
      received,
      failNext(count = 1, detail) {
        forced = { count, detail };
      },
      setOutage(down) {
        outage = down;
      },
    },
    async migrate(request) {
      received.push(request);
      if (received.length > 10000) received.splice(0, received.length - 10000);
      let failure: string | undefined;
      if (forced.count > 0) {
        forced.count -= 1;
        failure = forced.detail ?? PLATFORM_ERROR;
      } else if (outage) failure = PLATFORM_ERROR;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return failure ? { ok: false, detail: failure } : { ok: true };
    },
  };
}

/** `POST {url}/subscribers` with the request; the gateway answers `{ ok, detail? }`; no answer within 10 s is an error. */
function createHttp(url: string): MigrationPlatform {
  const base = url.replace(/\/+$/, '');
  return {
    async migrate(request) {
      try {
        const res = await fetch(`${base}/subscribers`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(request),
          signal: AbortSignal.timeout(10000),
        });
        if (!res.ok) return { ok: false, detail: `migration gateway answered ${res.status}` };
        const body = (await res.json()) as { ok?: boolean; detail?: string };
        return { ok: body.ok === true, detail: body.detail };
      } catch (e) {
        return { ok: false, detail: e instanceof Error ? e.message : String(e) };
      }
    },
  };
}

export function createMigrationPlatform(settings: MigrationSettings = {}): MigrationPlatform {
  return settings.url ? createHttp(settings.url) : createSimulator(settings.delayMs ?? 20);
}
