/**
 * The range calls of the assign-subscribers screen: moving a range to another account, giving a range a roaming
 * profile, and migrating a range to the external core platform (then each subscriber's migration status).
 * Changes invalidate the subscriber tag, so lists and detail pages read the new values.
 */
import { answering } from '@web/core/generatedApi';
import { enhancedApi } from './rangeApi.gen';
import type { RangeType } from './range';

export interface Range {
  rangeStart: string;
  rangeEnd: string;
}

/** The answer of a range change: how many subscribers the range held, how many changed. */
export interface RangeChange {
  total: number;
  changed: number;
  unchanged: number;
  subscriberIds: number[];
  /** A change the core network carries out (a roaming profile): the job of its answers. */
  jobId?: number;
}

export interface MoveRequest {
  accountId: number;
  range: Range;
  rangeType: RangeType;
}

export interface RoamingProfileRequest {
  roamingProfileId: number;
  range: Range;
  rangeType: RangeType;
  sourceRoamingProfileId?: number;
}

export interface MigrationStart {
  jobId: number;
  total: number;
  subscriberIds: number[];
}

export type { MigrationStatus, ApprovedProfile } from '@web/core/subscriberCommonApi';

export const rangeApi = answering<{
  postSubscribersMove: RangeChange & { accountId: number };
  postSubscribersRoamingProfile: RangeChange & { roamingProfileId: number };
  postSummaSubscriberMigrationRange: MigrationStart;
}>()(
  enhancedApi.enhanceEndpoints({
    endpoints: {
      postSubscribersMove: { invalidatesTags: ['subscriber'] },
      postSubscribersRoamingProfile: { invalidatesTags: ['subscriber'] },
      postSummaSubscriberMigrationRange: { invalidatesTags: ['subscriber'] },
    },
  }),
);

export const { usePostSubscribersMoveMutation, usePostSubscribersRoamingProfileMutation, usePostSummaSubscriberMigrationRangeMutation } = rangeApi;
/** Approved roaming profiles of the user's subtree. */
export { useGetRoamingProfilesQuery } from '@web/core/subscriberCommonApi';
/** A subscriber's migration status; refreshed for the whole range by invalidating `MigrationStatus`. */
export { useGetSummaSubscriberMigrationByIdQuery } from '@web/core/subscriberCommonApi';
