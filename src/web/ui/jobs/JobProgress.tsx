/**
 * One job's progress and outcome: its status, how many items succeeded, failed and were skipped (as the network
 * answered them), a bar while it runs, and the actions: cancel, the failed rows as CSV, retry the failed, and the
 * reason of each item that did not succeed. Screens that start a bulk action show it for the job they started;
 * the jobs screen shows one per job.
 */
import { Button, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { DownloadIcon, ListDetailViewIcon, RefreshIcon, StopIcon } from '@blueprintjs/icons';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { showToast } from '../toaster';
import { JobItems } from './JobItems';
import {
  isCancellable,
  isOpen,
  JOB_POLL_MS,
  processed,
  usePostJobsByIdCancelMutation,
  useJobFailuresMutation,
  useGetJobsByIdQuery,
  usePostJobsByIdRetryMutation,
  type Job,
} from '@web/core/jobsApi';
import './jobs.css';
import { hasMessage, messageOr } from '@web/core/messages';

/** What a job's status tag says: a job done with failures says so. */
function statusOf(job: Job): { id: string; intent: Intent } {
  switch (job.status) {
    case 'queued':
      return { id: 'job.status.queued', intent: Intent.NONE };
    case 'running':
      return { id: 'job.status.running', intent: Intent.PRIMARY };
    case 'waiting':
      return { id: 'job.status.waiting', intent: Intent.PRIMARY };
    case 'done':
      return job.failed > 0 ? { id: 'job.status.doneWithFailures', intent: Intent.WARNING } : { id: 'job.status.done', intent: Intent.SUCCESS };
    case 'failed':
      return { id: 'job.status.failed', intent: Intent.DANGER };
    case 'cancelled':
      return { id: 'job.status.cancelled', intent: Intent.WARNING };
  }
}

/**
 * The kind's own name when the catalogue has one (`job.kind.<kind>`), else the kind as stored. The name may
 * use the job's parameters: `{action}` (a bulk action's name) and `{file}` (an uploaded file's name).
 */
export function KindName({ kind, params = {} }: { kind: string; params?: Job['params'] }) {
  const intl = useIntl();
  const action = typeof params.action === 'string' ? params.action : '';
  const file = typeof params.file === 'string' ? params.file : '';
  return messageOr(intl, `job.kind.${kind}`, kind, { action: messageOr(intl, `bulk.action.${action}`, action), file });
}

/** The message of a refused call: its first field's message in the user's language, else as the server worded it. */
function refusalText(intl: ReturnType<typeof useIntl>, error: QueryError): string {
  const refused = apiErrorOf(error);
  const field = refused?.fields?.[0];
  if (field?.messageId && hasMessage(intl, field.messageId)) return intl.formatMessage({ id: field.messageId });
  if (refused?.statusCode === 403) return intl.formatMessage({ id: 'error.forbidden' });
  return field?.message ?? refused?.message ?? intl.formatMessage({ id: 'app.error.generic' });
}

export interface JobSummaryProps {
  job: Job;
  /** Names the job first (where no column does). */
  withKind?: boolean;
  /** Hears of the job a retry started. */
  onRetried?: (jobId: number) => void;
}

/** A job's status, counts, progress and actions, and on demand the reason of each item that did not succeed. */
export function JobSummary({ job, withKind = false, onRetried }: JobSummaryProps) {
  const intl = useIntl();
  const [cancel, cancelling] = usePostJobsByIdCancelMutation();
  const [failures, downloading] = useJobFailuresMutation();
  const [retry, retrying] = usePostJobsByIdRetryMutation();
  const [reasons, setReasons] = useState(false);
  const status = statusOf(job);
  const open = isOpen(job);

  async function retryFailed() {
    const answer = await retry(job.id);
    if ('error' in answer) {
      showToast({ intent: Intent.DANGER, message: refusalText(intl, answer.error) });
      return;
    }
    const { jobId, total, leftOut } = answer.data;
    showToast({ intent: Intent.PRIMARY, message: intl.formatMessage({ id: 'job.retry.started' }, { id: jobId, total, leftOut }) });
    onRetried?.(jobId);
  }

  return (
    <div className="portal-job" data-testid={`job-${job.id}`} data-status={job.status}>
      <div className="portal-job-line">
        {withKind && (
          <strong data-testid="job-kind">
            <KindName kind={job.kind} params={job.params} />
          </strong>
        )}
        <Tag intent={status.intent} minimal data-testid="job-status">
          <FormattedMessage id={status.id} />
        </Tag>
        <span className="portal-job-counts" data-testid="job-counts">
          <Tag minimal round intent={Intent.SUCCESS} data-testid="job-succeeded">
            <FormattedMessage id="job.count.succeeded" values={{ count: job.succeeded }} />
          </Tag>
          <Tag minimal round intent={job.failed ? Intent.DANGER : Intent.NONE} data-testid="job-failed">
            <FormattedMessage id="job.count.failed" values={{ count: job.failed }} />
          </Tag>
          <Tag minimal round data-testid="job-skipped">
            <FormattedMessage id="job.count.skipped" values={{ count: job.skipped }} />
          </Tag>
          <span data-testid="job-total">
            <FormattedMessage id="job.count.total" values={{ done: processed(job), total: job.total }} />
          </span>
        </span>
        {job.waiting > 0 && (
          <span className="portal-job-waiting" data-testid="job-waiting">
            <FormattedMessage id="job.count.waiting" values={{ count: job.waiting }} />
          </span>
        )}
        {job.retryOf !== null && (
          <span className="portal-job-retry-of" data-testid="job-retry-of">
            <FormattedMessage id="job.retryOf" values={{ id: job.retryOf }} />
          </span>
        )}
      </div>
      <ProgressBar
        intent={job.failed > 0 ? Intent.WARNING : status.intent}
        animate={open}
        stripes={open}
        value={job.total === 0 ? 1 : processed(job) / job.total}
        aria-label={intl.formatMessage({ id: 'job.progress' })}
      />
      <div className="portal-job-actions">
        {isCancellable(job) && (
          <Button
            size="small"
            icon={<StopIcon />}
            loading={cancelling.isLoading}
            onClick={() => cancel(job.id)}
            text={intl.formatMessage({ id: 'job.cancel' })}
          />
        )}
        {job.failed + job.skipped + job.waiting > 0 && (
          <Button
            size="small"
            icon={<ListDetailViewIcon />}
            active={reasons}
            aria-expanded={reasons}
            onClick={() => setReasons(!reasons)}
            text={intl.formatMessage({ id: 'job.reasons' })}
            data-testid="job-show-reasons"
          />
        )}
        {job.failed > 0 && (
          <Button
            size="small"
            icon={<DownloadIcon />}
            loading={downloading.isLoading}
            onClick={() => failures(job.id)}
            text={intl.formatMessage({ id: 'job.failures' })}
            data-testid="job-failures-csv"
          />
        )}
        {job.failed > 0 && !open && (
          <Button
            size="small"
            intent={Intent.PRIMARY}
            icon={<RefreshIcon />}
            loading={retrying.isLoading}
            onClick={() => void retryFailed()}
            text={intl.formatMessage({ id: 'job.retry' })}
            data-testid="job-retry"
          />
        )}
      </div>
      {reasons && <JobItems job={job} />}
    </div>
  );
}

/** Follows one job until it ends; `onEnded` hears once that it has (done, failed or cancelled). */
export function JobProgress({ id, onEnded, ...rest }: { id: number; onEnded?: (job: Job) => void } & Omit<JobSummaryProps, 'job'>) {
  const [open, setOpen] = useState(true);
  const { data: job } = useGetJobsByIdQuery(id, { pollingInterval: open ? JOB_POLL_MS : 0, skipPollingIfUnfocused: false });
  if (job && isOpen(job) !== open) setOpen(isOpen(job));
  // Reported once, when the job is first seen ended.
  const reported = useRef(false);
  useEffect(() => {
    if (!job || isOpen(job) || reported.current) return;
    reported.current = true;
    onEnded?.(job);
  }, [job, onEnded]);
  return job ? <JobSummary job={job} {...rest} /> : null;
}
