import { ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import { Button, ButtonGroup, Classes } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';

export interface PagerProps {
  /** One-based. */
  page: number;
  pages: number;
  total: number;
  /** The total is the server's estimate: shown as approximate, and Next stays open until a page comes back short. */
  estimate?: boolean;
  /** Rows on this page and the page size: a page with fewer rows than the size is the last, whatever the total says. */
  rows?: number;
  size?: number;
  onPage: (page: number) => void;
}

export interface PagerCount {
  pages: number;
  total: number;
  estimate: boolean;
  hasNext: boolean;
}

/**
 * What the pager says. An exact total is taken as it is. An estimate may be short of the real count (the planner's
 * guess), so it never closes the list: pages past it open while pages come back full, and the first short page
 * turns the count exact, since every row before it is then known.
 */
export function pagerCount({ page, pages, total, estimate, rows, size }: Omit<PagerProps, 'onPage'>): PagerCount {
  if (!estimate || rows === undefined || size === undefined) return { pages, total, estimate: Boolean(estimate), hasNext: estimate ? true : page < pages };
  if (rows < size) return { pages: page, total: (page - 1) * size + rows, estimate: false, hasNext: false };
  return { pages: Math.max(pages, page + 1), total: Math.max(total, page * size), estimate: true, hasNext: true };
}

export function Pager({ onPage, ...props }: PagerProps) {
  const intl = useIntl();
  const { page } = props;
  const { pages, total, estimate, hasNext } = pagerCount(props);
  return (
    <nav className="portal-pager" data-testid="list-pager" aria-label={intl.formatMessage({ id: 'list.pager' })}>
      <span className={Classes.TEXT_MUTED} data-testid="list-total">
        <FormattedMessage id={estimate ? 'list.totalEstimate' : 'list.total'} values={{ count: total }} />
      </span>
      <ButtonGroup>
        <Button
          icon={<ChevronLeftIcon className="portal-mirror-rtl" />}
          aria-label={intl.formatMessage({ id: 'list.previous' })}
          disabled={page <= 1}
          onClick={() => onPage(page - 1)}
        />
        <span className="portal-pager-page" data-testid="list-page" aria-live="polite">
          <FormattedMessage id={estimate ? 'list.pageEstimate' : 'list.page'} values={{ page, pages }} />
        </span>
        <Button
          icon={<ChevronRightIcon className="portal-mirror-rtl" />}
          aria-label={intl.formatMessage({ id: 'list.next' })}
          disabled={!hasNext}
          onClick={() => onPage(page + 1)}
        />
      </ButtonGroup>
    </nav>
  );
}
