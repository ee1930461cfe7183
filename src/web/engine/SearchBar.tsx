import { CrossIcon, SearchIcon } from '@blueprintjs/icons';
import { Button, ControlGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { EntitySchema, SearchFilter } from '@shared/schema';

export interface SearchBarProps {
  schema: EntitySchema;
  filters: SearchFilter[];
  searchKey: string;
  searchBy: string;
  onSearch: (searchKey: string, searchBy: string) => void;
}

/** The message id a filter is offered by: its own title, else its property's. */
export function filterLabelId(schema: EntitySchema, filter: SearchFilter): string {
  return filter.title ?? schema.properties[filter.by]?.title ?? filter.by;
}

/** The text a filter is offered by: a custom field's own label as it is, else the translated message. */
export function filterLabel(intl: IntlShape, schema: EntitySchema, filter: SearchFilter): string {
  return filter.custom ? filter.custom.label : intl.formatMessage({ id: filterLabelId(schema, filter) });
}

/**
 * A search box with its "search by" choice. Enter or the button searches; the box keeps what was searched. Both keep
 * what the user chose until the address follows: a new address is drawn as a transition, after the typing that may
 * come at once, and a search sent in between must be by the filter just chosen.
 */
export function SearchBar({ schema, filters, searchKey, searchBy, onSearch }: SearchBarProps) {
  const intl = useIntl();
  const [draft, setDraft] = useState(searchKey);
  const [by, setBy] = useState(searchBy);
  // The address can change under the box (back button, a bookmark): follow it.
  const [followed, setFollowed] = useState({ searchKey, searchBy });
  if (followed.searchKey !== searchKey || followed.searchBy !== searchBy) {
    setFollowed({ searchKey, searchBy });
    if (followed.searchKey !== searchKey) setDraft(searchKey);
    if (followed.searchBy !== searchBy) setBy(searchBy);
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(draft.trim(), by);
  };
  const clear = () => {
    setDraft('');
    onSearch('', by);
  };

  return (
    <form className="portal-search" role="search" onSubmit={submit}>
      <ControlGroup>
        <HTMLSelect
          aria-label={intl.formatMessage({ id: 'search.by' })}
          data-testid="list-search-by"
          value={by}
          // A new filter re-runs a search that has text; with an empty box it only changes the choice.
          onChange={(e) => {
            setBy(e.currentTarget.value);
            onSearch(draft.trim(), e.currentTarget.value);
          }}
          options={filters.map((f) => ({ value: f.by, label: filterLabel(intl, schema, f) }))}
        />
        <InputGroup
          type="search"
          leftIcon={<SearchIcon />}
          data-testid="list-search"
          aria-label={intl.formatMessage({ id: 'search.placeholder' })}
          placeholder={intl.formatMessage({ id: 'search.placeholder' })}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          rightElement={
            draft ? <Button variant="minimal" icon={<CrossIcon />} aria-label={intl.formatMessage({ id: 'search.clear' })} onClick={clear} /> : undefined
          }
        />
        <Button type="submit" icon={<SearchIcon />} data-testid="list-search-submit">
          {intl.formatMessage({ id: 'search.submit' })}
        </Button>
      </ControlGroup>
    </form>
  );
}
