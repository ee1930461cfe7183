/**
 * One job's progress: a bar while it runs, then its outcome, with cancel and the failures' download. Screens that
 * start a bulk action show it for the job they started; the jobs screen shows one per job.
 */
import { Button, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { DownloadIcon, StopIcon } from '@blueprintjs/icons';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { isOpen, JOB_POLL_MS, useCancelJobMutation, useJobFailuresMutation, useJobQuery, type Job } from './jobsApi';

const STATUS_INTENT: Record<Job['status'], Intent> = { queued: Intent.NONE, running: Intent.PRIMARY, done: Intent.SUCCESS, cancelled: Intent.WARNING };

/**
 * The kind's own name when the catalogue has one (`job.kind.<kind>`), else the kind as stored. The name may
 * use the job's parameters: `{action}` (a bulk action's name) and `{file}` (an uploaded file's name).
 */
export function KindName({ kind, params = {} }: { kind: string; params?: Job['params'] }) {
  const intl = useIntl();
  if (!intl.messages[`job.kind.${kind}`]) return kind;
  const action = typeof params.action === 'string' ? params.action : '';
  const actionName = intl.messages[`bulk.action.${action}`] ? intl.formatMessage({ id: `bulk.action.${action}` }) : action;
  return intl.formatMessage({ id: `job.kind.${kind}` }, { action: actionName, file: typeof params.file === 'string' ? params.file : '' });
}

/** A job's status, counts and progress; `withKind` names the job first (where no column does). */
export function JobSummary({ job, withKind = false }: { job: Job; withKind?: boolean }) {
  const intl = useIntl();
  const [cancel, cancelling] = useCancelJobMutation();
  const [failures, downloading] = useJobFailuresMutation();
  const processed = job.done + job.failed;
  return (
    <div className="portal-job" data-testid={`job-${job.id}`}>
      <div className="portal-job-line">
        {withKind && (
          <strong data-testid="job-kind">
            <KindName kind={job.kind} params={job.params} />
          </strong>
        )}
        <Tag intent={STATUS_INTENT[job.status]} minimal data-testid="job-status">
          <FormattedMessage id={`job.status.${job.status}`} />
        </Tag>
        <span data-testid="job-counts">
          <FormattedMessage id="job.counts" values={{ done: job.done, failed: job.failed, total: job.total }} />
        </span>
        {isOpen(job) && (
          <Button size="small" icon={<StopIcon />} loading={cancelling.isLoading} onClick={() => cancel(job.id)} text={intl.formatMessage({ id: 'job.cancel' })} />
        )}
        {job.failed > 0 && (
          <Button size="small" icon={<DownloadIcon />} loading={downloading.isLoading} onClick={() => failures(job.id)} text={intl.formatMessage({ id: 'job.failures' })} />
        )}
      </div>
      <ProgressBar
        intent={job.failed > 0 ? Intent.WARNING : STATUS_INTENT[job.status]}
        animate={isOpen(job)}
        stripes={isOpen(job)}
        value={job.total === 0 ? 1 : processed / job.total}
        aria-label={intl.formatMessage({ id: 'job.progress' })}
      />
    </div>
  );
}

/** Follows one job until it ends; `onEnded` hears once that it has (done or cancelled). */
export function JobProgress({ id, onEnded, withKind }: { id: number; onEnded?: (job: Job) => void; withKind?: boolean }) {
  const [open, setOpen] = useState(true);
  const { data: job } = useJobQuery(id, { pollingInterval: open ? JOB_POLL_MS : 0, skipPollingIfUnfocused: false });
  if (job && isOpen(job) !== open) setOpen(isOpen(job));
  // Reported once, when the job is first seen ended.
  const reported = useRef(false);
  useEffect(() => {
    if (!job || isOpen(job) || reported.current) return;
    reported.current = true;
    onEnded?.(job);
  }, [job, onEnded]);
  return job ? <JobSummary job={job} withKind={withKind} /> : null;
}
