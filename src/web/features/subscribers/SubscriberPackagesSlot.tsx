/**
 * Where the subscriber's prepaid packages panel goes. The packages screen provides it
 * (`@web/features/packages/SubscriberPackagesPanel`); until it exists the slot shows nothing.
 */
export function SubscriberPackagesSlot(_props: { subscriberId: number }) {
  return null;
}
