import { CrossIcon, SearchIcon } from '@blueprintjs/icons';
import { Button, Callout, FormGroup, HTMLSelect, InputGroup, Intent, PopoverNext } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router-dom';
import { showToast } from '@web/ui/toaster';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { findSchema } from '@web/core/schemas';
import { useCustomFields } from '@web/engine/customFields';
import { customName } from '@shared/customFields';
import { allowedTargets, filtersFor, findTarget, searchAddress, targetForLocation, type SearchTarget } from './searchTargets';

/** The label of a filter; the multi-field filter reads differently per page. */
export function filterMessageId(target: SearchTarget, by: string): string {
  return by === 'multi' ? `searchPopup.by.multi.${target.page}` : `searchPopup.by.${by}`;
}

interface LabelledSelectProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: { value: string; label: string }[];
}

function LabelledSelect({ id, label, value, onChange, options }: LabelledSelectProps) {
  return (
    <FormGroup label={label} labelFor={id}>
      <HTMLSelect id={id} fill data-testid={id} value={value} onChange={(e) => onChange(e.currentTarget.value)} options={options} />
    </FormGroup>
  );
}

function SearchForm({ targets, onDone }: { targets: SearchTarget[]; onDone: () => void }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const isAdmin = useIsAdmin();
  const location = useLocation();
  const [page, setPage] = useState<string>(() => targetForLocation(targets, location.pathname, location.search)?.page ?? '');
  const target = findTarget(page);
  // The caller's custom fields of the page's entity are filters too, after the page's own (`custom.<key>`).
  const { fields: customFields } = useCustomFields(target?.customEntity ? findSchema(target.customEntity) : undefined);
  const labels = new Map(customFields.map((f) => [customName(f), f.label]));
  const filters = target ? [...filtersFor(target, isAdmin), ...labels.keys()] : [];
  const [searchBy, setSearchBy] = useState(filters[0] ?? '');
  const [text, setText] = useState('');

  const run = (key: string, by: string) => {
    if (!target || !targets.includes(target)) {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'searchPopup.failed' }) });
      return;
    }
    if (target.comingSoon) return;
    navigate(searchAddress(target, key, by));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    run(text, searchBy);
    onDone();
  };
  const choosePage = (next: string) => {
    setPage(next);
    const nextTarget = findTarget(next);
    setSearchBy(nextTarget ? (filtersFor(nextTarget, isAdmin)[0] ?? '') : '');
  };
  const chooseFilter = (by: string) => {
    setSearchBy(by);
    if (text.trim()) run(text, by);
  };
  const changeText = (value: string) => {
    setText(value);
    // Emptying the box clears the search on the list.
    if (!value && text) run('', searchBy);
  };

  return (
    <form className="portal-search-popup" role="search" onSubmit={submit} data-testid="search-popup">
      <LabelledSelect
        id="search-popup-page"
        label={intl.formatMessage({ id: 'searchPopup.page' })}
        value={page}
        onChange={choosePage}
        options={targets.map((t) => ({ value: t.page, label: intl.formatMessage({ id: `searchPopup.page.${t.page}` }) }))}
      />
      {target?.comingSoon ? (
        <Callout intent={Intent.PRIMARY} data-testid="search-popup-soon">
          <FormattedMessage id="searchPopup.comingSoon" />
        </Callout>
      ) : (
        <>
          <LabelledSelect
            id="search-popup-by"
            label={intl.formatMessage({ id: 'search.by' })}
            value={searchBy}
            onChange={chooseFilter}
            options={filters.map((by) => ({ value: by, label: labels.get(by) ?? intl.formatMessage({ id: target ? filterMessageId(target, by) : by }) }))}
          />
          <InputGroup
            type="search"
            autoFocus
            leftIcon={<SearchIcon />}
            data-testid="search-popup-text"
            aria-label={intl.formatMessage({ id: 'search.placeholder' })}
            placeholder={intl.formatMessage({ id: 'search.placeholder' })}
            value={text}
            onChange={(e) => changeText(e.currentTarget.value)}
            rightElement={
              text ? (
                <Button variant="minimal" icon={<CrossIcon />} aria-label={intl.formatMessage({ id: 'search.clear' })} onClick={() => changeText('')} />
              ) : undefined
            }
          />
          <Button type="submit" intent={Intent.PRIMARY} icon={<SearchIcon />} className="portal-search-popup-submit" data-testid="search-popup-submit">
            <FormattedMessage id="search.submit" />
          </Button>
        </>
      )}
    </form>
  );
}

/** The top bar's search: shown when the Search privilege has at least one page. */
export function SearchPopup({ searchPages }: { searchPages: readonly string[] }) {
  const intl = useIntl();
  const [open, setOpen] = useState(false);
  const targets = allowedTargets(searchPages);
  if (searchPages.length === 0) return null;
  return (
    <PopoverNext isOpen={open} onInteraction={setOpen} placement="bottom" content={<SearchForm targets={targets} onDone={() => setOpen(false)} />}>
      <Button variant="minimal" icon={<SearchIcon />} data-testid="search-popup-open" aria-label={intl.formatMessage({ id: 'searchPopup.open' })}>
        <span className="portal-hide-mobile">
          <FormattedMessage id="search.submit" />
        </span>
      </Button>
    </PopoverNext>
  );
}
