/**
 * The range calls of the assign-subscribers screen: moving a range to another account, giving a range a roaming
 * profile, and migrating a range to the external core platform (then each subscriber's migration status).
 * Changes invalidate the subscriber tag, so lists and detail pages read the new values.
 */
import { api } from '@web/core/api';
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

export type MigrationStatus = 'pending' | 'success' | 'error' | null;

/** An approved roaming profile the caller may give; `slots` is its number of IMSIs. */
export interface ApprovedProfile {
  id: number;
  name: string;
  slots: number;
  resellerName: string;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['MigrationStatus'] });

export const rangeApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    moveRange: build.mutation<RangeChange & { accountId: number }, MoveRequest>({
      query: (body) => ({ url: '/subscribers/move', method: 'POST', body }),
      invalidatesTags: ['subscriber'],
    }),
    rangeRoamingProfile: build.mutation<RangeChange & { roamingProfileId: number }, RoamingProfileRequest>({
      query: (body) => ({ url: '/subscribers/roaming-profile', method: 'POST', body }),
      invalidatesTags: ['subscriber'],
    }),
    startRangeMigration: build.mutation<MigrationStart, Range>({
      query: (body) => ({ url: '/summa/subscriber-migration/range', method: 'POST', body }),
      invalidatesTags: ['subscriber'],
    }),
    rangeMigrationStatus: build.query<{ subscriberId: number; migrationStatus: MigrationStatus }, number>({
      query: (id) => `/summa/subscriber-migration/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'MigrationStatus', id }],
    }),
    approvedProfiles: build.query<ApprovedProfile[], void>({
      query: () => '/roaming-profiles',
    }),
  }),
});

export const {
  useMoveRangeMutation,
  useRangeRoamingProfileMutation,
  useStartRangeMigrationMutation,
  useRangeMigrationStatusQuery,
  useApprovedProfilesQuery,
} = rangeApi;
