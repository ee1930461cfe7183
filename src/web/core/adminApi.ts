/** The administrator's read-only views of what public calls produced: mail kept locally and join requests. */
import type { Page } from '@shared/wire';
import { answering } from './generatedApi';
import { enhancedApi } from './adminApi.gen';
import type { JoinRequestFields } from '@shared/join';

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  createdAt: string;
}

export interface JoinRequestRow extends JoinRequestFields {
  id: number;
  createdAt: string;
}

/** Zero-based page and its size, as the admin calls take them in the query string. */
export interface AdminPageArgs {
  page: number;
  size: number;
}

export const adminApi = answering<{ getAdminOutbox: Page<OutboxMail>; getAdminJoinRequests: Page<JoinRequestRow> }>()(
  enhancedApi.enhanceEndpoints({
    addTagTypes: ['Outbox', 'JoinRequests'],
    endpoints: {
      getAdminOutbox: { providesTags: ['Outbox'] },
      getAdminJoinRequests: { providesTags: ['JoinRequests'] },
    },
  }),
);

export const { useGetAdminOutboxQuery, useGetAdminJoinRequestsQuery } = adminApi;
