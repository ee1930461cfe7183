/**
 * Bulk actions on subscribers: the preview (nothing written), the job that applies an action to a selection,
 * and changes from a CSV file (checked first, then applied as a job). Jobs are followed through the jobs calls.
 */
import type { FieldError } from '@shared/wire';
import { api } from '@web/core/api';
import type { SelectionTarget } from '@web/engine/EntityListPage';
import { jobsApi } from '@web/core/jobsApi';

export const BULK_ACTIONS = ['suspend', 'reactivate', 'daily-limit', 'qos', 'pricing-plan', 'roaming-profile', 'move', 'group-name'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export interface BulkRequest {
  action: BulkAction;
  params: Record<string, unknown>;
  selection: { ids: number[] } | { search: { searchBy: string; searchKey: string } };
}

export interface BulkPreview {
  action: BulkAction;
  total: number;
  willChange: number;
  /** Why the others will not change, with how many each. */
  reasons: { messageId: string; message: string; count: number }[];
  /** The first subscribers that will not change. */
  rows: { subscriberId: number; messageId: string; message: string }[];
}

export interface CsvReport {
  total: number;
  valid: number;
  unchanged: number;
  rejected: { line: number; values: Record<string, string>; fields: FieldError[] }[];
  /** Once applied: the job that does it. */
  jobId?: number;
}

/** Upload files are "less than 4 MB". */
export const CSV_MAX_BYTES = 4 * 1024 * 1024;

/** The selection of the list as the bulk calls take it. */
export function bulkSelection(target: SelectionTarget): BulkRequest['selection'] {
  return 'ids' in target ? { ids: target.ids.map(Number) } : { search: target.search };
}

export const bulkApi = api.injectEndpoints({
  endpoints: (build) => ({
    bulkPreview: build.mutation<BulkPreview, BulkRequest>({
      query: (body) => ({ url: '/subscribers/bulk/preview', method: 'POST', body }),
    }),
    startBulk: build.mutation<{ jobId: number; total: number }, BulkRequest>({
      query: (body) => ({ url: '/subscribers/bulk', method: 'POST', body }),
      onQueryStarted: async (_body, { dispatch, queryFulfilled }) => {
        await queryFulfilled.catch(() => undefined);
        dispatch(jobsApi.util.invalidateTags([{ type: 'Job', id: 'LIST' }]));
      },
    }),
    sendSubscriberCsv: build.mutation<CsvReport, { file: File; confirm: boolean }>({
      query: ({ file, confirm }) => {
        const body = new FormData();
        body.append('file', file);
        return { url: '/subscribers/bulk/csv', method: 'POST', body, params: confirm ? { confirm: 'true' } : undefined };
      },
    }),
    /** Approved roaming profiles of the user's subtree. */
    bulkRoamingProfiles: build.query<{ id: number; name: string; slots: number; resellerName: string }[], void>({
      query: () => '/roaming-profiles',
    }),
  }),
});

export const { useBulkPreviewMutation, useStartBulkMutation, useSendSubscriberCsvMutation, useBulkRoamingProfilesQuery } = bulkApi;
