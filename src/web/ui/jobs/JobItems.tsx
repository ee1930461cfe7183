/**
 * The items of a job that did not simply succeed, with the reason of each: failed, skipped, or still waiting for
 * the core network, one tab each, paged on the server. Items of a subscriber job link to the subscriber.
 */
import { Classes, HTMLTable, Tab, Tabs } from '@blueprintjs/core';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { Pager } from '../Pager';
import { isOpen, JOB_POLL_MS, useGetJobsByIdItemsQuery, type ItemStatus, type Job, type JobItem } from '@web/core/jobsApi';
import { messageOr } from '@web/core/messages';

export const ITEMS_PAGE_SIZE = 10;

/** The reason in the user's language when the catalogue knows it, else as the server worded it. */
function Reason({ item }: { item: JobItem }) {
  const intl = useIntl();
  return item.messageId ? messageOr(intl, item.messageId, item.message ?? '') : (item.message ?? '');
}

function ItemTable({ job, status }: { job: Job; status: ItemStatus }) {
  const [page, setPage] = useState(0);
  // While the job moves, its items' outcomes change: read them again as its progress is read.
  const { data } = useGetJobsByIdItemsQuery({ id: job.id, status, page, size: ITEMS_PAGE_SIZE }, { pollingInterval: isOpen(job) ? JOB_POLL_MS : 0 });
  if (!data) return null;
  const subscribers = job.kind.startsWith('subscribers.');
  return (
    <>
      {/* A job's items in one tab per outcome inside the job's own panel, ten a page and polled while it runs: the grid and the admin table are whole pages, not tabs. */}
      <HTMLTable compact striped className="portal-job-items" data-testid={`job-items-${status}`}>
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id={subscribers ? 'entity.subscriber.field.subscriberId' : 'job.items.key'} />
            </th>
            <th scope="col">
              <FormattedMessage id="job.items.reason" />
            </th>
            <th scope="col">
              <FormattedMessage id="job.items.detail" />
            </th>
          </tr>
        </thead>
        <tbody>
          {data.items.map((item) => (
            <tr key={item.seq} data-testid="job-item" data-key={item.key}>
              <td>
                <bdi>{subscribers ? <Link to={`/subscriber/${item.key}`}>{item.key}</Link> : item.key}</bdi>
              </td>
              <td data-testid="job-item-reason">
                <Reason item={item} />
              </td>
              {/* The network's own words (codes and protocol names) stay as it gave them, left to right. */}
              <td className={Classes.TEXT_MUTED} data-testid="job-item-detail">
                <bdi dir="ltr">{item.detail}</bdi>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {data.totalPageCount > 1 && <Pager page={data.currentPage + 1} pages={data.totalPageCount} total={data.totalItemsCount} onPage={(p) => setPage(p - 1)} />}
    </>
  );
}

export function JobItems({ job }: { job: Job }) {
  const intl = useIntl();
  const counts: Record<ItemStatus, number> = { failed: job.failed, skipped: job.skipped, waiting: job.waiting };
  const shown = (Object.keys(counts) as ItemStatus[]).filter((s) => counts[s] > 0);
  const [chosen, setChosen] = useState<ItemStatus>(shown[0] ?? 'failed');
  const tab = shown.includes(chosen) ? chosen : shown[0];
  if (!tab) return null;
  return (
    <section className="portal-job-reasons" data-testid="job-reasons" aria-label={intl.formatMessage({ id: 'job.reasons' })}>
      <Tabs id={`job-${job.id}-items`} selectedTabId={tab} onChange={(next) => setChosen(next as ItemStatus)} animate={false} renderActiveTabPanelOnly>
        {shown.map((status) => (
          <Tab
            key={status}
            id={status}
            data-testid={`job-tab-${status}`}
            title={intl.formatMessage({ id: `job.items.${status}` }, { count: counts[status] })}
            panel={<ItemTable job={job} status={status} />}
          />
        ))}
      </Tabs>
    </section>
  );
}
