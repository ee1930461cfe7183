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
  /** Bars a subscriber from service (HSS subscriber status: operator-determined barring). */
  suspendSubscriber: { protocol: 'Diameter', summary: 'subscriber barred in the HSS' },
  /** Lifts the barring of a suspended subscriber. */
  reactivateSubscriber: { protocol: 'Diameter', summary: 'subscriber barring lifted in the HSS' },
  /** Tells the serving VLR/MME to drop the subscriber, so it registers afresh. */
  cancelLocation: {
    protocol: 'SS7',
    summary: 'MAP Cancel Location sent to the serving VLR',
    failures: ['cancel location failure: MAP error 27 absent subscriber', 'cancel location failure: no answer from the serving VLR'],
  },
  /** Refreshes the SIM over the air (SMS-PP OTA, REFRESH proactive command). */
  refreshSim: {
    protocol: 'SS7',
    summary: 'SIM refresh delivered over the air',
    failures: ['OTA delivery failed: SMS-PP not acknowledged by the SIM', 'subscriber not online: MAP error 27 absent subscriber'],
  },
  /** Changes the MSISDN the HLR/HSS holds for the subscriber. */
  modifyMsisdn: { protocol: 'Diameter', summary: 'MSISDN changed in the HSS profile' },
  /**
   * Sets the subscriber's speed limit (the APN-AMBR of its HSS profile) to its service class. Its payload is
   * {@link SpeedPayload}; no class (null speeds) lifts the limit. A gateway receives it as `POST {url}/setSpeed`.
   */
  setSpeed: { protocol: 'Diameter', summary: 'speed limit (APN-AMBR) written to the HSS profile' },
  /** Writes the subscriber's roaming profile to the HSS. */
  updateHssProfile: { protocol: 'Diameter', summary: 'roaming profile written to the HSS' },
  /** Resets the subscriber's allowed networks in the HSS to its roaming profile's lists. */
  resetAllowedNetworks: { protocol: 'Diameter', summary: 'allowed networks reset in the HSS profile' },
  /** Sends the sponsor IMSIs waiting for provisioning to the SIM over the air. */
  pushPendingImsis: {
    protocol: 'SS7',
    summary: 'pending IMSIs pushed to the SIM over the air',
    failures: ['OTA delivery failed: SMS-PP not acknowledged by the SIM', 'subscriber not online: MAP error 27 absent subscriber'],
  },
  /**
   * Sends a text message to the SIM (MAP MT-ForwardSM through the SMS centre), one message long. Its payload is
   * {@link SmsPayload}; a gateway receives it as `POST {url}/sendSms`.
   */
  sendSms: {
    protocol: 'SS7',
    summary: 'SMS delivered to the SIM (MAP MT-ForwardSM)',
    failures: ['SMS delivery failed: MAP error 27 absent subscriber', 'SMS delivery failed: MAP error 32 SM delivery failure, SIM memory full'],
  },
} as const satisfies Record<string, OperationSpec>;

/** What `setSpeed` carries: the service class and its speeds in kbit/s, or nulls for no limit. */
export type SpeedPayload = {
  serviceClassId: number | null;
  downlinkKbps: number | null;
  uplinkKbps: number | null;
};

/** What `sendSms` carries: the text and how it travels (see @shared/sms). */
export type SmsPayload = {
  text: string;
  encoding: 'GSM-7' | 'UCS-2';
};

/**
 * What the network reports by itself as devices register and move: the visited network's signalling reaching the
 * HLR/HSS. The portal never sends these; a gateway's reports and the demo history write them to the same log,
 * beside the portal's own requests (a move also brings the HLR's Cancel Location to the network left).
 */
export const CORE_NETWORK_REPORTS = {
  /** A 2G/3G visited network (VLR) registers the subscriber for voice and SMS. */
  updateLocation: {
    protocol: 'SS7',
    summary: 'MAP Update Location from the visited VLR',
    failures: ['roaming not allowed: MAP error 8, network barred by the roaming profile'],
  },
  /** A 2G/3G visited network (SGSN) registers the subscriber for packet data. */
  updateGprsLocation: { protocol: 'SS7', summary: 'MAP Update GPRS Location from the visited SGSN' },
  /** A 4G/5G visited network (MME) attaches the device. */
  attach: { protocol: 'Diameter', summary: 'S6a Update Location (initial attach) from the visited MME' },
  /** The device detached (switched off, or out of coverage for long): the MME purges it. */
  detach: { protocol: 'Diameter', summary: 'S6a Purge UE (detach) from the visited MME' },
} as const satisfies Record<string, OperationSpec>;

export interface OperationSpec {
  /** `SS7` (MAP over SIGTRAN) or `Diameter`. */
  protocol: 'SS7' | 'Diameter';
  summary: string;
  /** How this operation typically fails on a real network; the simulator picks one for a simulated failure. */
  failures?: readonly string[];
}

export type CoreNetworkOperation = keyof typeof CORE_NETWORK_OPERATIONS;

export const isCoreNetworkOperation = (name: string): name is CoreNetworkOperation => Object.hasOwn(CORE_NETWORK_OPERATIONS, name);
