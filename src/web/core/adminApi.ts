/** The administrator's read-only views of what public calls produced: mail kept locally and join requests. */
import type { Page } from '@shared/wire';
import { api } from './api';
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

const adminTagged = api.enhanceEndpoints({ addTagTypes: ['Outbox', 'JoinRequests'] });

export const adminApi = adminTagged.injectEndpoints({
  endpoints: (build) => ({
    outbox: build.query<Page<OutboxMail>, AdminPageArgs>({
      query: (params) => ({ url: '/admin/outbox', params }),
      providesTags: ['Outbox'],
    }),
    joinRequests: build.query<Page<JoinRequestRow>, AdminPageArgs>({
      query: (params) => ({ url: '/admin/join-requests', params }),
      providesTags: ['JoinRequests'],
    }),
  }),
});

export const { useOutboxQuery, useJoinRequestsQuery } = adminApi;
