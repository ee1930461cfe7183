/**
 * Migrates the caller's subscribers of a range to the external core platform. The server marks them pending at
 * once and migrates them one by one in a background job; the screen follows the job (what succeeded, failed with
 * the platform's reason, or was skipped) and each subscriber's status (pending, then success or error) without a
 * reload.
 */
import { ExportIcon } from '@blueprintjs/icons';
import { Callout, HTMLTable, Intent } from '@blueprintjs/core';
import { useEffect, useRef, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router-dom';
import { useAppDispatch } from '@web/core/hooks';
import { Pager } from '@web/ui/Pager';
import { StatusTag } from '@web/ui/StatusTag';
import { JobSummary } from '@web/ui/jobs/JobProgress';
import { isOpen, processed, useGetJobsByIdQuery } from '@web/core/jobsApi';
import { RangeForm, useRangeInput } from './RangeFields';
import { rangeApi, useGetSummaSubscriberMigrationByIdQuery, usePostSummaSubscriberMigrationRangeMutation, type MigrationStart } from './rangeApi';

/** How often a running migration job is asked for its progress, in ms. */
export const MIGRATION_POLL_MS = 1000;
const PAGE_SIZE = 20;

function MigrationRow({ id }: { id: number }) {
  const { data } = useGetSummaSubscriberMigrationByIdQuery(id);
  const status = data?.migrationStatus;
  return (
    <tr data-testid={`migration-${id}`} data-status={status ?? ''}>
      <td>
        <Link to={`/subscriber/${id}`} dir="ltr">
          {id}
        </Link>
      </td>
      <td>{status === undefined ? '…' : <StatusTag value={status} />}</td>
    </tr>
  );
}

function MigrationProgress({ started }: { started: MigrationStart }) {
  const dispatch = useAppDispatch();
  const [page, setPage] = useState(1);
  const [running, setRunning] = useState(true);
  const { data: job } = useGetJobsByIdQuery(started.jobId, { pollingInterval: running ? MIGRATION_POLL_MS : 0 });
  const finished = job !== undefined && !isOpen(job);
  if (finished && running) setRunning(false);
  const done = job ? processed(job) : 0;
  // Each step of the job settles some subscribers: read the shown statuses again as it moves.
  const progress = `${done}/${job?.status ?? ''}`;
  const seen = useRef(progress);
  useEffect(() => {
    if (seen.current === progress) return;
    seen.current = progress;
    dispatch(rangeApi.util.invalidateTags(['MigrationStatus']));
  }, [dispatch, progress]);

  const ids = started.subscriberIds;
  const pages = Math.max(1, Math.ceil(ids.length / PAGE_SIZE));
  const shown = ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  return (
    <section className="portal-assign-progress" data-testid="migration-progress" data-running={!finished}>
      <p data-testid="migration-counts">
        <FormattedMessage id={finished ? 'assign.migrate.finished' : 'assign.migrate.running'} values={{ done, total: started.total }} />
      </p>
      {job && <JobSummary job={job} />}
      {/* The live status of the subscribers a running migration moves, paged in the browser from the ids it started: a progress view, not a list to sort or search. */}
      <HTMLTable compact striped className="portal-assign-statuses" data-testid="migration-statuses">
        <thead>
          <tr>
            <th>
              <FormattedMessage id="entity.subscriber.field.subscriberId" />
            </th>
            <th>
              <FormattedMessage id="entity.subscriber.field.migrationStatus" />
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((id) => (
            <MigrationRow key={id} id={id} />
          ))}
        </tbody>
      </HTMLTable>
      {pages > 1 && <Pager page={page} pages={pages} total={ids.length} onPage={setPage} />}
    </section>
  );
}

export function MigrationRangeForm() {
  const input = useRangeInput();
  const [start, state] = usePostSummaSubscriberMigrationRangeMutation();
  return (
    <RangeForm
      name="migrate"
      input={input}
      intro="assign.migrate.intro"
      submit="assign.migrate.submit"
      icon={<ExportIcon />}
      call={state}
      inline={[]}
      onSubmit={(rangeHolds) => rangeHolds && start(input.range)}
      result={
        state.data && (
          <>
            <Callout intent={Intent.PRIMARY} className="portal-assign-callout" role="status" data-testid="migrate-started">
              <FormattedMessage id="assign.migrate.started" values={{ total: state.data.total }} />
            </Callout>
            <MigrationProgress key={state.data.jobId} started={state.data} />
          </>
        )
      }
    />
  );
}
