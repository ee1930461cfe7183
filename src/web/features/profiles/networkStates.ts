import { Intent } from '@blueprintjs/core';
import type { NetworkState } from './profilesApi';

/**
 * The colour a network's state reads in: allowed green, blocked red, a change waiting for the core network amber
 * (blocking, removal) or blue (allowing again), gone grey.
 */
export const STATE_INTENT: Record<NetworkState, Intent> = {
  preferred: Intent.SUCCESS,
  blocked: Intent.DANGER,
  pending: Intent.WARNING,
  pendingRemoval: Intent.WARNING,
  pendingChanges: Intent.PRIMARY,
  removed: Intent.NONE,
};
