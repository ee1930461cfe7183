/**
 * The SIM vendor: an order is placed with it once its resources are allocated, and it answers with the batch file
 * (one line per SIM: ICCID, the IMSI of each slot, MSISDN, and the SIM's secret keys Ki and OPc). The local default is
 * a simulator that produces that file itself, with random keys; a vendor gateway is used when a URL is configured.
 */
import { randomBytes } from 'node:crypto';

export interface VendorSlot {
  slot: number;
  imsiFrom: string;
}

export interface VendorOrder {
  uuid: string;
  batchName: string;
  simType: string;
  simSize: string;
  amount: number;
  iccidFrom: string;
  msisdnFrom: string | null;
  slots: VendorSlot[];
  efConfig: string | null;
  profileName: string | null;
}

export interface VendorSim {
  iccid: string;
  imsis: string[];
  msisdn: string | null;
  ki: string;
  opc: string;
}

export interface VendorAnswer {
  /** The vendor's own reference of the order. */
  reference: string;
  /** The batch file's lines: the SIMs with their keys. */
  sims: VendorSim[];
}

export interface SimVendor {
  readonly name: string;
  place(order: VendorOrder): Promise<VendorAnswer>;
}

export interface SimVendorSettings {
  /** The vendor gateway: POST {url}/orders with the order as JSON answers `VendorAnswer`; the simulator without it. */
  url?: string;
  timeoutMs?: number;
}

/** The Luhn check digit of a number's digits (ICCIDs end with one). */
export function luhnDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** The n-th number after `from` (decimal text, kept to its length). */
export const offset = (from: string, n: number) => (BigInt(from) + BigInt(n)).toString().padStart(from.length, '0');

/** The ICCID of the n-th SIM from the allocated body (`iccidFrom` without its check digit) plus its check digit. */
export const iccidAt = (body: string, n: number) => {
  const digits = offset(body, n);
  return digits + luhnDigit(digits);
};

export function simulatorVendor(): SimVendor {
  return {
    name: 'simulator',
    async place(order) {
      const body = order.iccidFrom.slice(0, -1);
      const sims: VendorSim[] = [];
      for (let i = 0; i < order.amount; i++)
        sims.push({
          iccid: iccidAt(body, i),
          imsis: order.slots.map((s) => offset(s.imsiFrom, i)),
          msisdn: order.msisdnFrom ? offset(order.msisdnFrom, i) : null,
          ki: randomBytes(16).toString('hex').toUpperCase(),
          opc: randomBytes(16).toString('hex').toUpperCase(),
        });
      return { reference: `SIM-${order.uuid.slice(0, 8).toUpperCase()}`, sims };
    },
  };
}

function gatewayVendor(url: string, timeoutMs: number): SimVendor {
  return {
    name: 'gateway',
    async place(order) {
      const res = await fetch(`${url.replace(/\/+$/, '')}/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(order),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`vendor answered ${res.status}`);
      return (await res.json()) as VendorAnswer;
    },
  };
}

export function createSimVendor(settings: SimVendorSettings = {}): SimVendor {
  return settings.url ? gatewayVendor(settings.url, settings.timeoutMs ?? 240_000) : simulatorVendor();
}

/** The batch file's lines (each ending with a newline): a header, then one line per SIM. */
export function* batchFileLines(sims: Iterable<VendorSim>, slots: number): Generator<string> {
  const imsiHeads = Array.from({ length: slots }, (_, i) => `IMSI${i + 1}`);
  yield `${['ICCID', ...imsiHeads, 'MSISDN', 'KI', 'OPC'].join(',')}\n`;
  for (const s of sims) yield `${[s.iccid, ...s.imsis, s.msisdn ?? '', s.ki, s.opc].join(',')}\n`;
}

/** The batch file as CSV text: a header, then one line per SIM. */
export function batchFile(sims: VendorSim[], slots: number): string {
  return [...batchFileLines(sims, slots)].join('');
}
