/**
 * Subscriber calls several screens read: the approved roaming profiles a caller may give (the bulk dialog, the
 * assign-subscribers ranges) and a subscriber's migration status (its detail page, a migrated range).
 */
import { answering } from './generatedApi';
import { enhancedApi } from './subscriberCommonApi.gen';

export const SUBSCRIBER_INFO = 'SubscriberInfo';
export const MIGRATION = 'MigrationStatus';

export type MigrationStatus = 'pending' | 'success' | 'error' | null;

/** An approved roaming profile the caller may give; `slots` is its number of IMSIs. */
export interface ApprovedProfile {
  id: number;
  name: string;
  slots: number;
  resellerName: string;
}

export const subscriberCommonApi = answering<{
  getRoamingProfiles: ApprovedProfile[];
}>()(
  enhancedApi.enhanceEndpoints({
    addTagTypes: [SUBSCRIBER_INFO, MIGRATION],
    endpoints: {
      getRoamingProfiles: { providesTags: [] },
      // `MigrationStatus` refreshes the statuses of a migrated range at once.
      getSummaSubscriberMigrationById: {
        providesTags: (_r, _e, id) => [
          { type: SUBSCRIBER_INFO, id: Number(id) },
          { type: MIGRATION, id: Number(id) },
        ],
      },
    },
  }),
);

export const { useGetRoamingProfilesQuery, useGetSummaSubscriberMigrationByIdQuery } = subscriberCommonApi;
