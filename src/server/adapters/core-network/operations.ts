/**
 * The operations the core network (HLR/HSS, STP, Diameter routing) understands, with the signalling
 * protocol each travels on. The event log shows the protocol; the simulator answers every operation listed.
 *
 * To add an operation (e.g. a subscriber's cancel location):
 *   1. add an entry here: `cancelLocation: { protocol: 'SS7', summary: 'MAP Cancel Location to the serving VLR' }`;
 *   2. call it: `app.coreNetwork.dispatch({ operation: 'cancelLocation', imsi, resellerId, subscriberId }, onAnswer)`
 *      (or `await app.coreNetwork.send(...)` to wait for the answer);
 *   3. if the answer carries data (e.g. pending IMSIs), give the simulator an answer in `simulator.ts` (`ANSWERS`).
 * Every request is recorded in `network_event`, whatever the transport, so nothing else needs to change.
 */
export const CORE_NETWORK_OPERATIONS = {
  /** Bars a visited network for the SIMs of an allowed list (HSS roaming restriction). */
  blockNetwork: { protocol: 'Diameter', summary: 'roaming restriction added to the HSS profile' },
  /** Lets the SIMs of an allowed list roam on a network again, as a preferred network. */
  allowNetwork: { protocol: 'Diameter', summary: 'network allowed and preferred in the HSS profile' },
  /** Takes a network out of an allowed list (it left the catalogue). */
  removeNetwork: { protocol: 'Diameter', summary: 'network removed from the HSS profile' },
} as const satisfies Record<string, OperationSpec>;

export interface OperationSpec {
  /** `SS7` (MAP over SIGTRAN) or `Diameter`. */
  protocol: 'SS7' | 'Diameter';
  summary: string;
}

export type CoreNetworkOperation = keyof typeof CORE_NETWORK_OPERATIONS;

export const isCoreNetworkOperation = (name: string): name is CoreNetworkOperation => Object.hasOwn(CORE_NETWORK_OPERATIONS, name);
