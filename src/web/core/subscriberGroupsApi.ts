/**
 * Subscriber groups beyond their generic calls: adding and removing members (an outcome per subscriber) and a page
 * of a group's subscribers. A change of members makes the subscriber lists read again (a list may be filtered by the
 * group).
 */
import { api } from './api';
import { enhancedApi } from './subscriberGroupsApi.gen';

export type MemberOutcome = import('./subscriberGroupsApi.gen').PostSubscriberGroupsByIdMembersApiResponse['results'][number]['outcome'];

/** The search filter of the subscribers list that shows a group's subscribers (its key is the group's id). */
export const GROUP_FILTER = 'groupId';

export const subscriberGroupsApi = enhancedApi.enhanceEndpoints({
  endpoints: {
    postSubscriberGroupsByIdMembers: {
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        await queryFulfilled.catch(() => undefined);
        dispatch(api.util.invalidateTags([{ type: 'subscriber', id: 'LIST' }]));
      },
    },
    postSubscriberGroupsByIdMembersRemove: {
      onQueryStarted: async (_arg, { dispatch, queryFulfilled }) => {
        await queryFulfilled.catch(() => undefined);
        dispatch(api.util.invalidateTags([{ type: 'subscriber', id: 'LIST' }]));
      },
    },
  },
});

export const { usePostSubscriberGroupsByIdMembersMutation, usePostSubscriberGroupsByIdMembersRemoveMutation, usePostSubscriberGroupsByIdMembersPagedQuery } =
  subscriberGroupsApi;

/** The address of the subscribers list filtered by a group. */
export const groupSubscribersPath = (groupId: number | string) => `/subscribers?searchBy=${GROUP_FILTER}&searchKey=${encodeURIComponent(String(groupId))}`;
