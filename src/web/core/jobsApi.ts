/** Background jobs: following their progress and outcomes, cancelling them, their failed items and retrying those. */
import type { Page } from '@shared/wire';
import { api } from './api';
import { saveAttachment } from './endpoints';

/** `waiting`: every item applied, some still wait for the core network's answer. */
export type JobStatus = 'queued' | 'running' | 'waiting' | 'done' | 'failed' | 'cancelled';

export interface Job {
  id: number;
  kind: string;
  status: JobStatus;
  total: number;
  /** The items' real outcomes so far. */
  succeeded: number;
  failed: number;
  skipped: number;
  /** Items handed to the core network, not answered yet. */
  waiting: number;
  /** The job whose failed items this one tries again. */
  retryOf: number | null;
  params: Record<string, unknown>;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** The outcomes whose items the server lists. */
export type ItemStatus = 'failed' | 'skipped' | 'waiting';

/** One item of a job with its reason: a message id, its English text, and the network's own words. */
export interface JobItem {
  seq: number;
  key: string;
  status: ItemStatus;
  messageId: string | null;
  message: string | null;
  detail: string | null;
}

/** Still moving: the runner applies its items, or the network's answers are awaited. */
export const isOpen = (job: Job) => job.status === 'queued' || job.status === 'running' || job.status === 'waiting';
/** Can be stopped: items are still to be applied. */
export const isCancellable = (job: Job) => job.status === 'queued' || job.status === 'running';
/** Items the job has an outcome for. */
export const processed = (job: Job) => job.succeeded + job.failed + job.skipped;

/** How often an open job is asked for again, in ms. */
export const JOB_POLL_MS = 1000;

const jobsTagged = api.enhanceEndpoints({ addTagTypes: ['Job'] });

export const jobsApi = jobsTagged.injectEndpoints({
  endpoints: (build) => ({
    jobs: build.query<Page<Job>, { page: number; size: number }>({
      query: (params) => ({ url: '/jobs', params }),
      providesTags: [{ type: 'Job', id: 'LIST' }],
    }),
    job: build.query<Job, number>({
      query: (id) => `/jobs/${id}`,
      providesTags: (_job, _error, id) => [{ type: 'Job', id }],
    }),
    jobItems: build.query<Page<JobItem>, { id: number; status: ItemStatus; page: number; size: number }>({
      query: ({ id, ...params }) => ({ url: `/jobs/${id}/items`, params }),
      providesTags: (_items, _error, { id }) => [{ type: 'Job', id }],
    }),
    cancelJob: build.mutation<Job, number>({
      query: (id) => ({ url: `/jobs/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_job, _error, id) => [{ type: 'Job', id }, { type: 'Job', id: 'LIST' }],
    }),
    retryJob: build.mutation<{ jobId: number; total: number; leftOut: number }, number>({
      query: (id) => ({ url: `/jobs/${id}/retry`, method: 'POST' }),
      invalidatesTags: [{ type: 'Job', id: 'LIST' }],
    }),
    jobFailures: build.mutation<string, number>({
      query: (id) => ({ url: `/jobs/${id}/failures`, responseHandler: saveAttachment }),
    }),
  }),
});

export const { useJobsQuery, useJobQuery, useJobItemsQuery, useCancelJobMutation, useRetryJobMutation, useJobFailuresMutation } = jobsApi;
