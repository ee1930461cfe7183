import { ChevronLeftIcon, ChevronRightIcon } from '@blueprintjs/icons';
import { Button, ButtonGroup, Classes } from '@blueprintjs/core';
import { FormattedMessage, useIntl } from 'react-intl';

export interface PagerProps {
  /** One-based. */
  page: number;
  pages: number;
  total: number;
  /** The total is the server's estimate: shown as approximate. */
  estimate?: boolean;
  onPage: (page: number) => void;
}

export function Pager({ page, pages, total, estimate, onPage }: PagerProps) {
  const intl = useIntl();
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
          <FormattedMessage id="list.page" values={{ page, pages }} />
        </span>
        <Button
          icon={<ChevronRightIcon className="portal-mirror-rtl" />}
          aria-label={intl.formatMessage({ id: 'list.next' })}
          disabled={page >= pages}
          onClick={() => onPage(page + 1)}
        />
      </ButtonGroup>
    </nav>
  );
}
