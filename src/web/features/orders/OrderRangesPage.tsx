/**
 * `/orders/ranges` (the administrator's): the IMSI, ICCID and MSISDN ranges SIM order allocation draws from, paged,
 * sorted and filtered on the server (kind, active or retired, a number a range holds or a sponsor's name). A row opens
 * its form; *Add range* an empty one. The form checks the rules of a range as the server does (`rangeRuleErrors` of
 * src/shared/orders.ts) and shows the server's own refusals (overlap, numbers already taken) under their fields.
 * Retiring keeps the range listed but stops allocation from it.
 */
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, H2, HTMLSelect, InputGroup, Intent, NonIdealState } from '@blueprintjs/core';
import { ArchiveIcon, PlusIcon, SearchIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { RANGE_KINDS, rangeRuleErrors, type RangeKind } from '@shared/orders';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { EntityGrid, type GridSort } from '@web/engine/EntityGrid';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';
import {
  useGetSimProvidersQuery,
  usePostSimOrdersAdminResourceRangesByIdRetireMutation,
  usePostSimOrdersAdminResourceRangesMutation,
  usePostSimOrdersAdminResourceRangesPagedQuery,
  usePutSimOrdersAdminResourceRangesByIdMutation,
  type ResourceRange,
} from './ordersApi';
import { rangeSchema } from './orderSchema';
import './orders.css';

const PAGE_SIZE = 25;
type Field = 'kind' | 'sponsorId' | 'providerId' | 'first' | 'last' | 'retired';

function RangeDialog({ range, onClose }: { range?: ResourceRange; onClose: () => void }) {
  const intl = useIntl();
  const label = (id: string) => intl.formatMessage({ id });
  const { data: sponsors = [] } = entityEndpoints(findSchema('sponsor')!).list!.useQuery();
  const { data: providers = [] } = useGetSimProvidersQuery();
  const [add, adding] = usePostSimOrdersAdminResourceRangesMutation();
  const [change, changing] = usePutSimOrdersAdminResourceRangesByIdMutation();
  const [retire, retiring] = usePostSimOrdersAdminResourceRangesByIdRetireMutation();
  const [confirmRetire, setConfirmRetire] = useState(false);
  const [form, setForm] = useState({
    kind: (range?.kind ?? 'imsi') as RangeKind,
    sponsorId: range?.sponsorId ?? 0,
    providerId: range?.providerId ?? 0,
    first: range?.first ?? '',
    last: range?.last ?? '',
  });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const sponsorList = sponsors as { id: number; name: string; imsiPrefix: string }[];
  const sponsor = sponsorList.find((s) => s.id === form.sponsorId);
  const ruleErrors = rangeRuleErrors({ ...form, sponsorId: form.sponsorId || null, sponsorPrefix: sponsor?.imsiPrefix });
  const errorOf = (field: Field) => {
    if (serverErrors[field]) return serverErrors[field];
    const rule = touched[field] ? ruleErrors.find((e) => e.field === field) : undefined;
    return rule ? label(rule.messageId) : undefined;
  };
  const set = (patch: Partial<typeof form>) => {
    setForm((f) => ({ ...f, ...patch }));
    setServerErrors({});
  };
  const readOnly = range?.retired ?? false;
  const fail = (e: unknown) => {
    const api = apiErrorOf(e as QueryError);
    const byField: Partial<Record<Field, string>> = {};
    for (const f of api?.fields ?? []) byField[f.field as Field] = intl.messages[f.messageId] ? label(f.messageId) : f.message;
    setServerErrors(byField);
    setTouched({ kind: true, sponsorId: true, providerId: true, first: true, last: true });
    if (!api?.fields?.length || byField.retired) showToast({ intent: Intent.DANGER, message: byField.retired ?? label('orders.ranges.saveError') });
  };
  const save = async () => {
    setTouched({ kind: true, sponsorId: true, providerId: true, first: true, last: true });
    if (ruleErrors.length) return;
    const sponsorId = form.kind === 'iccid' ? undefined : form.sponsorId || undefined;
    try {
      if (range)
        await change({
          id: range.id,
          body: { first: form.first, last: form.last, sponsorId, ...(form.kind === 'iccid' ? { providerId: form.providerId || null } : {}) },
        }).unwrap();
      else
        await add({
          kind: form.kind,
          first: form.first,
          last: form.last,
          sponsorId,
          providerId: form.kind === 'iccid' ? form.providerId || undefined : undefined,
        }).unwrap();
      showToast({ intent: Intent.SUCCESS, message: label('form.saved') });
      onClose();
    } catch (e) {
      fail(e);
    }
  };
  const field = (name: Field) => ({ intent: errorOf(name) ? Intent.DANGER : Intent.NONE, helperText: errorOf(name) });
  const digits = form.kind === 'imsi' ? 15 : form.kind === 'iccid' ? 18 : 15;
  return (
    <Dialog isOpen onClose={onClose} title={label(range ? 'orders.ranges.edit' : 'orders.ranges.add')} className="portal-range-dialog">
      <DialogBody>
        <FormGroup label={label('orders.ranges.column.kind')} labelFor="range-kind" {...field('kind')}>
          <HTMLSelect id="range-kind" value={form.kind} disabled={!!range} onChange={(e) => set({ kind: e.currentTarget.value as RangeKind })}>
            {RANGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {label(`orders.ranges.kind.${k}`)}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        {form.kind === 'iccid' ? (
          <FormGroup label={label('orders.ranges.column.providerName')} labelFor="range-provider" {...field('providerId')}>
            <HTMLSelect
              id="range-provider"
              value={form.providerId || ''}
              disabled={readOnly}
              onChange={(e) => set({ providerId: Number(e.currentTarget.value) })}
            >
              <option value="">{label('orders.ranges.anyProvider')}</option>
              {providers.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        ) : (
          <FormGroup
            label={label('orders.ranges.column.sponsorName')}
            labelFor="range-sponsor"
            intent={errorOf('sponsorId') ? Intent.DANGER : Intent.NONE}
            helperText={
              errorOf('sponsorId') ??
              (sponsor && form.kind === 'imsi' ? intl.formatMessage({ id: 'orders.ranges.prefixHint' }, { prefix: sponsor.imsiPrefix }) : undefined)
            }
          >
            <HTMLSelect
              id="range-sponsor"
              value={form.sponsorId || ''}
              disabled={readOnly}
              onChange={(e) => {
                set({ sponsorId: Number(e.currentTarget.value) });
                setTouched((t) => ({ ...t, sponsorId: true }));
              }}
            >
              <option value="">{label('orders.wizard.choose')}</option>
              {sponsorList.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        )}
        {(['first', 'last'] as const).map((name) => (
          <FormGroup key={name} label={label(`orders.ranges.column.${name}`)} labelFor={`range-${name}`} {...field(name)}>
            <InputGroup
              id={`range-${name}`}
              className="portal-ltr"
              inputMode="numeric"
              maxLength={digits}
              readOnly={readOnly}
              value={form[name]}
              intent={errorOf(name) ? Intent.DANGER : Intent.NONE}
              onChange={(e) => set({ [name]: e.currentTarget.value.trim() })}
              onBlur={() => setTouched((t) => ({ ...t, [name]: true }))}
            />
          </FormGroup>
        ))}
        {range && (
          <p className="portal-range-usage">
            <FormattedMessage
              id="orders.ranges.usage"
              values={{
                next: <span className="portal-ltr">{range.next}</span>,
                free: intl.formatNumber(range.free),
                total: intl.formatNumber(range.total ?? 0),
              }}
            />
          </p>
        )}
        {readOnly && (
          <Callout intent={Intent.WARNING}>
            <FormattedMessage id="orders.ranges.retiredNote" />
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            {range && !readOnly && (
              <Button
                icon={<ArchiveIcon />}
                intent={Intent.WARNING}
                loading={retiring.isLoading}
                onClick={() => setConfirmRetire(true)}
                data-testid="range-retire"
              >
                <FormattedMessage id="orders.ranges.retire" />
              </Button>
            )}
            <Button onClick={onClose} text={label('orders.close')} />
            {!readOnly && (
              <Button
                intent={Intent.PRIMARY}
                loading={adding.isLoading || changing.isLoading}
                disabled={ruleErrors.length > 0 && Object.keys(touched).length > 0}
                onClick={() => void save()}
                text={label('form.save')}
                data-testid="range-save"
              />
            )}
          </>
        }
      />
      <Alert
        isOpen={confirmRetire}
        intent={Intent.WARNING}
        icon={<ArchiveIcon />}
        confirmButtonText={label('orders.ranges.retire')}
        cancelButtonText={label('form.cancel')}
        onCancel={() => setConfirmRetire(false)}
        onConfirm={async () => {
          setConfirmRetire(false);
          try {
            await retire(range!.id).unwrap();
            showToast({ intent: Intent.SUCCESS, message: label('orders.ranges.retired') });
            onClose();
          } catch (e) {
            fail(e);
          }
        }}
      >
        <FormattedMessage id="orders.ranges.retireConfirm" />
      </Alert>
    </Dialog>
  );
}

export default function OrderRangesPage() {
  const intl = useIntl();
  const label = (id: string) => intl.formatMessage({ id });
  usePageTitle(label('orders.ranges.title'));
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<GridSort>({ sortBy: 'id', sortDir: 'asc' });
  const [kind, setKind] = useState<RangeKind | ''>('');
  const [status, setStatus] = useState<'active' | 'retired' | ''>('active');
  const [search, setSearch] = useState('');
  const [searchKey, setSearchKey] = useState('');
  const [open, setOpen] = useState<ResourceRange | 'new'>();
  const result = usePostSimOrdersAdminResourceRangesPagedQuery({
    kind: kind || null,
    status: status || null,
    searchKey: searchKey || null,
    sortBy: sort.sortBy,
    sortDir: sort.sortDir,
    page: { page, size: PAGE_SIZE },
  });
  const data = result.data;
  const searchError = result.isError ? apiErrorOf(result.error as QueryError)?.fields?.find((f) => f.field === 'searchKey') : undefined;
  return (
    <div className="portal-page" data-testid="order-ranges">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="orders.ranges.title" />
        </H2>
        <div className="portal-page-actions">
          <Link to="/orders">
            <FormattedMessage id="orders.title" />
          </Link>
          <Link to="/orders/profiles">
            <FormattedMessage id="orders.profiles.title" />
          </Link>
          <Button icon={<PlusIcon />} intent={Intent.PRIMARY} onClick={() => setOpen('new')} text={label('orders.ranges.add')} data-testid="range-add" />
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="orders.ranges.intro" />
      </p>
      <div className="portal-order-row">
        <HTMLSelect
          aria-label={label('orders.ranges.column.kind')}
          value={kind}
          onChange={(e) => {
            setKind(e.currentTarget.value as RangeKind | '');
            setPage(0);
          }}
          data-testid="range-filter-kind"
        >
          <option value="">{label('orders.ranges.kind.all')}</option>
          {RANGE_KINDS.map((k) => (
            <option key={k} value={k}>
              {label(`orders.ranges.kind.${k}`)}
            </option>
          ))}
        </HTMLSelect>
        <HTMLSelect
          aria-label={label('orders.ranges.column.state')}
          value={status}
          onChange={(e) => {
            setStatus(e.currentTarget.value as 'active' | 'retired' | '');
            setPage(0);
          }}
          data-testid="range-filter-status"
        >
          <option value="active">{label('orders.ranges.state.active')}</option>
          <option value="retired">{label('orders.ranges.state.retired')}</option>
          <option value="">{label('orders.ranges.state.all')}</option>
        </HTMLSelect>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setSearchKey(search.trim());
            setPage(0);
          }}
        >
          <InputGroup
            type="search"
            className="portal-range-search"
            leftIcon={<SearchIcon />}
            aria-label={label('orders.ranges.search')}
            placeholder={label('orders.ranges.search')}
            maxLength={200}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            data-testid="range-search"
          />
        </form>
      </div>
      {result.isError ? (
        <Callout intent={Intent.DANGER} role="alert">
          {searchError ? label(searchError.messageId) : <FormattedMessage id="list.loadError" />}
        </Callout>
      ) : !data ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={rangeSchema}
            rows={data.items.map((r) => ({
              ...r,
              kind: label(`orders.ranges.kind.${r.kind}`),
              sponsorName: r.sponsorName ?? '',
              providerName: r.kind === 'iccid' ? (r.providerName ?? label('orders.ranges.anyProvider')) : '',
              state: label(r.retired ? 'orders.ranges.state.retired' : 'orders.ranges.state.active'),
            }))}
            sort={sort}
            onSortChange={(next) => {
              setSort(next);
              setPage(0);
            }}
            onOpenRow={(row) => setOpen(data.items.find((r) => r.id === row.id))}
          />
          {data.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager page={data.currentPage + 1} pages={Math.max(1, data.totalPageCount)} total={data.totalItemsCount} onPage={(next) => setPage(next - 1)} />
        </>
      )}
      {open && <RangeDialog range={open === 'new' ? undefined : open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
