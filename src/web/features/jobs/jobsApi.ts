/** Background jobs: following their progress, cancelling them and downloading their failures. */
import type { Page } from '@shared/wire';
import { api } from '@web/app/api';
import { saveAttachment } from '@web/engine/endpoints';

export type JobStatus = 'queued' | 'running' | 'done' | 'cancelled';

export interface Job {
  id: number;
  kind: string;
  status: JobStatus;
  total: number;
  done: number;
  failed: number;
  params: Record<string, unknown>;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export const isOpen = (job: Job) => job.status === 'queued' || job.status === 'running';

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
    cancelJob: build.mutation<Job, number>({
      query: (id) => ({ url: `/jobs/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_job, _error, id) => [{ type: 'Job', id }, { type: 'Job', id: 'LIST' }],
    }),
    jobFailures: build.mutation<string, number>({
      query: (id) => ({ url: `/jobs/${id}/failures`, responseHandler: saveAttachment }),
    }),
  }),
});

export const { useJobsQuery, useJobQuery, useCancelJobMutation, useJobFailuresMutation } = jobsApi;
