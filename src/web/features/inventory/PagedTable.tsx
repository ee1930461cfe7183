/** A page of rows in a table with its pager, or what stands instead: the load error, the spinner, or "nothing found". */
import { Callout, Intent, NonIdealState } from '@blueprintjs/core';
import type { ReactElement, ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';

interface PageOf {
  items: unknown[];
  currentPage: number;
  totalPageCount: number;
  totalItemsCount: number;
}

export function PagedTable({
  result,
  icon,
  onPage,
  children,
}: {
  result: { isError: boolean; data?: PageOf };
  icon: ReactElement;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  const { data } = result;
  if (result.isError)
    return (
      <Callout intent={Intent.DANGER} role="alert">
        <FormattedMessage id="list.loadError" />
      </Callout>
    );
  if (!data) return <Loading />;
  if (!data.items.length) return <NonIdealState icon={icon} description={<FormattedMessage id="list.empty" />} />;
  return (
    <>
      {children}
      <Pager page={data.currentPage + 1} pages={Math.max(1, data.totalPageCount)} total={data.totalItemsCount} onPage={onPage} />
    </>
  );
}
