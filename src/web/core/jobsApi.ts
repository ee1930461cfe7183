/** Background jobs: following their progress and outcomes, cancelling them, their failed items and retrying those. */
import type { Page } from '@shared/wire';
import { api } from './api';
import { answering } from './generatedApi';
import { saveAttachment } from './endpoints';
import { enhancedApi } from './jobsApi.gen';

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

const JOB = 'Job';
const LIST = { type: JOB, id: 'LIST' };

export const jobsApi = answering<{
  getJobs: Page<Job>;
  getJobsById: Job;
  getJobsByIdItems: Page<JobItem>;
  postJobsByIdCancel: Job;
  postJobsByIdRetry: { jobId: number; total: number; leftOut: number };
}>()(
  enhancedApi.enhanceEndpoints({
    addTagTypes: [JOB],
    endpoints: {
      getJobs: { providesTags: [LIST] },
      getJobsById: { providesTags: (_job, _error, id) => [{ type: JOB, id }] },
      getJobsByIdItems: { providesTags: (_items, _error, { id }) => [{ type: JOB, id }] },
      postJobsByIdCancel: { invalidatesTags: (_job, _error, id) => [{ type: JOB, id }, LIST] },
      postJobsByIdRetry: { invalidatesTags: [LIST] },
    },
  }),
);

const failuresApi = api.injectEndpoints({
  endpoints: (build) => ({
    // Not generated: a streamed CSV saved as a file, which the document cannot describe.
    jobFailures: build.mutation<string, number>({
      query: (id) => ({ url: `/jobs/${id}/failures`, responseHandler: saveAttachment }),
    }),
  }),
});

export const { useGetJobsQuery, useGetJobsByIdQuery, useGetJobsByIdItemsQuery, usePostJobsByIdCancelMutation, usePostJobsByIdRetryMutation } = jobsApi;
export const { useJobFailuresMutation } = failuresApi;
