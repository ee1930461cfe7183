/**
 * The subscriber list with bulk actions: rows ticked one by one or the whole search, an action checked by a
 * preview and run as a job whose progress and outcome show here (a job through the core network ends once the
 * network has answered for every subscriber), and changes uploaded as a CSV file. The list itself is the generic
 * entity list.
 */
import { Button, Callout, Intent } from '@blueprintjs/core';
import { CrossIcon, UploadIcon } from '@blueprintjs/icons';
import { useCallback, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { useLab } from '@web/core/labsApi';
import { useAppDispatch } from '@web/core/hooks';
import EntityListPage, { type ListBulk } from '@web/engine/EntityListPage';
import { findSchema } from '@web/core/schemas';
import { JobProgress } from '@web/ui/jobs/JobProgress';
import type { Job } from '@web/core/jobsApi';
import { api } from '@web/core/api';
import { BulkToolbar } from './bulk/BulkToolbar';
import { CsvUpdateDialog } from './bulk/CsvUpdateDialog';
import { GroupFilter } from './GroupFilter';
import './bulk/subscriberBulk.css';

const schema = findSchema('subscriber')!;

/** How often the list is read again while a job started here changes its rows. */
const REFRESH_MS = 2000;

interface StartedJob {
  id: number;
  ended: boolean;
}

export default function SubscribersPage() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [jobs, setJobs] = useState<StartedJob[]>([]);
  const [csvOpen, setCsvOpen] = useState(false);
  // The CSV update is a lab: hidden where the tenant switched it off.
  const csvUpdate = useLab('subscriberCsvUpdate');

  const started = useCallback((id: number) => setJobs((all) => [{ id, ended: false }, ...all.filter((j) => j.id !== id)]), []);
  // A job ends once every change has landed (the network's answers included): the list then shows them all.
  const ended = useCallback(
    (job: Job) => {
      setJobs((all) => all.map((j) => (j.id === job.id ? { ...j, ended: true } : j)));
      dispatch(api.util.invalidateTags([{ type: 'subscriber', id: 'LIST' }]));
    },
    [dispatch],
  );

  const busy = jobs.some((j) => !j.ended);
  const bulk: ListBulk = {
    toolbar: (selection) => <BulkToolbar selection={selection} onStarted={started} />,
    actions: (
      <>
        <GroupFilter />
        {csvUpdate && (
          <Button icon={<UploadIcon />} onClick={() => setCsvOpen(true)} data-testid="bulk-csv-open">
            <FormattedMessage id="bulkCsv.open" />
          </Button>
        )}
      </>
    ),
    status: jobs.length > 0 && (
      <Callout className="portal-bulk-jobs" intent={Intent.PRIMARY} icon={null} data-testid="bulk-jobs">
        {jobs.map((job) => (
          <div key={job.id} className="portal-bulk-job">
            <div className="portal-bulk-job-progress">
              <JobProgress id={job.id} onEnded={ended} onRetried={started} withKind />
            </div>
            {job.ended && (
              <Button
                variant="minimal"
                size="small"
                icon={<CrossIcon />}
                aria-label={intl.formatMessage({ id: 'bulk.job.dismiss' })}
                onClick={() => setJobs((all) => all.filter((j) => j.id !== job.id))}
              />
            )}
          </div>
        ))}
        <div className="portal-bulk-jobs-footer">
          <Link to="/jobs" data-testid="bulk-jobs-link">
            <FormattedMessage id="bulk.job.all" />
          </Link>
        </div>
      </Callout>
    ),
    refreshEvery: busy ? REFRESH_MS : 0,
  };

  return (
    <>
      <EntityListPage schema={schema} bulk={bulk} />
      {csvUpdate && csvOpen && <CsvUpdateDialog onClose={() => setCsvOpen(false)} onStarted={started} />}
    </>
  );
}
