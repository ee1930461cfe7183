import { useState } from 'react';
import { AdminTablePage, When, type AdminColumn } from '@web/ui/AdminTablePage';
import type { AdminPageArgs } from '@web/core/adminApi';
import { JobSummary, KindName } from '@web/ui/jobs/JobProgress';
import { isOpen, JOB_POLL_MS, useJobsQuery, type Job } from '@web/core/jobsApi';

/** The page of jobs, asked for again every second while any of them is still open. */
function useJobRows(args: AdminPageArgs) {
  const [open, setOpen] = useState(true);
  const result = useJobsQuery(args, { pollingInterval: open ? JOB_POLL_MS : 0 });
  const anyOpen = Boolean(result.data?.items.some(isOpen));
  if (result.data && anyOpen !== open) setOpen(anyOpen);
  return result;
}

const columns: AdminColumn<Job>[] = [
  { header: 'job.id', cell: (job) => job.id },
  { header: 'job.kind', cell: (job) => <KindName kind={job.kind} params={job.params} /> },
  { header: 'job.createdAt', cell: (job) => <When at={job.createdAt} /> },
  // A retry starts a job of its own, which the list shows at its top.
  { header: 'job.progress', cell: (job) => <JobSummary job={job} /> },
];

/**
 * The user's background jobs (the administrator's: everyone's), newest first, followed live while any runs: each
 * with what succeeded, failed and was skipped, the reasons, the failed rows as CSV and a retry of them.
 */
export default function JobsPage() {
  return <AdminTablePage testId="jobs-page" title="job.title" intro="job.intro" useRows={useJobRows} columns={columns} />;
}
