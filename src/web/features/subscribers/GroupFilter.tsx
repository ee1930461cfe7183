/**
 * The caller's subscriber groups as a filter of the subscribers list: choosing one shows its subscribers (a static
 * group's members, a saved search's current answer) through the list's `groupId` search, kept in the address.
 */
import { HTMLSelect } from '@blueprintjs/core';
import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router-dom';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { GROUP_FILTER } from '@web/core/subscriberGroupsApi';

const groups = entityEndpoints(findSchema('subscriberGroup')!);

export function GroupFilter() {
  const intl = useIntl();
  const [params, setParams] = useSearchParams();
  const list = groups.list!.useQuery();
  const chosen = params.get('searchBy') === GROUP_FILTER ? (params.get('searchKey') ?? '') : '';
  const choose = (value: string) => {
    const next = new URLSearchParams(params);
    next.delete('page');
    if (value) {
      next.set('searchBy', GROUP_FILTER);
      next.set('searchKey', value);
    } else {
      next.delete('searchBy');
      next.delete('searchKey');
    }
    setParams(next);
  };
  return (
    <HTMLSelect
      value={chosen}
      onChange={(e) => choose(e.currentTarget.value)}
      aria-label={intl.formatMessage({ id: 'subscriberGroup.filter' })}
      data-testid="subscriber-group-filter"
    >
      <option value="">{intl.formatMessage({ id: 'subscriberGroup.filter.all' })}</option>
      {(list.data ?? []).map((g) => (
        <option key={String(g.id)} value={String(g.id)}>
          {String(g.name)}
        </option>
      ))}
    </HTMLSelect>
  );
}
