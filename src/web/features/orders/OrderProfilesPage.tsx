/**
 * `/orders/profiles`: the provider profiles the caller sees and the profile requests, two grids paged, sorted and
 * filtered on the server (sponsor, slots, reseller, SIM type, IMSI prefix, and a search by name). A reseller requests
 * a profile (provider, sponsor, slots, SIM type, IMSI prefix); the administrator opens a pending request to approve
 * or deny it with a reason. Only approved profiles are offered in the order wizard.
 */
import {
  Button,
  Callout,
  Card,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  H2,
  H4,
  HTMLSelect,
  InputGroup,
  Intent,
  NonIdealState,
  TextArea,
} from '@blueprintjs/core';
import { PlusIcon, SearchIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import type { SimType } from '@shared/orders';
import { useGetResellerInfoListQuery } from '@web/core/authApi';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { EntityGrid, type GridSort } from '@web/engine/EntityGrid';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { Pager } from '@web/ui/Pager';
import { showToast } from '@web/ui/toaster';
import { apiErrorMessage } from './errors';
import {
  useGetSimProvidersProfilesPagedQuery,
  useGetSimProvidersQuery,
  usePostSimProvidersProfilesByIdReviewMutation,
  usePostSimProvidersProfilesRequestMutation,
  type ProfilePageArgs,
  type ProviderProfile,
} from './ordersApi';
import { profileSchema } from './orderSchema';
import './orders.css';

const PAGE_SIZE = 10;

function RequestDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const intl = useIntl();
  const { data: providers = [] } = useGetSimProvidersQuery();
  const { data: sponsors = [] } = entityEndpoints(findSchema('sponsor')!).list!.useQuery();
  const [request, requesting] = usePostSimProvidersProfilesRequestMutation();
  const [form, setForm] = useState({ providerId: 0, name: '', sponsorId: 0, slotCount: 1, simType: 'physical' as SimType, imsiPrefix: '', comment: '' });
  const set = (patch: Partial<typeof form>) => setForm((f) => ({ ...f, ...patch }));
  const label = (id: string) => intl.formatMessage({ id });
  const send = async () => {
    try {
      await request({ ...form, comment: form.comment.trim() || undefined }).unwrap();
      showToast({ intent: Intent.SUCCESS, message: label('orders.profiles.requested') });
      onClose();
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.profiles.submitError') });
    }
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={label('orders.profiles.request')}>
      <DialogBody>
        <FormGroup label={label('orders.field.provider')} labelFor="pr-provider">
          <HTMLSelect id="pr-provider" value={form.providerId || ''} onChange={(e) => set({ providerId: Number(e.currentTarget.value) })}>
            <option value="">{label('orders.wizard.choose')}</option>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={label('orders.profiles.name')} labelFor="pr-name">
          <InputGroup id="pr-name" maxLength={50} value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} />
        </FormGroup>
        <FormGroup label={label('orders.profiles.sponsor')} labelFor="pr-sponsor">
          <HTMLSelect id="pr-sponsor" value={form.sponsorId || ''} onChange={(e) => set({ sponsorId: Number(e.currentTarget.value) })}>
            <option value="">{label('orders.wizard.choose')}</option>
            {(sponsors as { id: number; name: string }[]).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <div className="portal-order-row">
          <FormGroup label={label('orders.profiles.slots')} labelFor="pr-slots">
            <HTMLSelect id="pr-slots" value={form.slotCount} onChange={(e) => set({ slotCount: Number(e.currentTarget.value) })}>
              {[1, 2, 3, 4].map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={label('orders.field.simType')} labelFor="pr-type">
            <HTMLSelect id="pr-type" value={form.simType} onChange={(e) => set({ simType: e.currentTarget.value as SimType })}>
              <option value="physical">{label('orders.simType.physical')}</option>
              <option value="esim">{label('orders.simType.esim')}</option>
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={label('orders.profiles.imsiPrefix')} labelFor="pr-prefix">
            <InputGroup
              id="pr-prefix"
              inputMode="numeric"
              maxLength={10}
              value={form.imsiPrefix}
              onChange={(e) => set({ imsiPrefix: e.currentTarget.value.trim() })}
            />
          </FormGroup>
        </div>
        <FormGroup label={label('orders.profiles.comment')} labelFor="pr-comment">
          <TextArea id="pr-comment" fill maxLength={500} value={form.comment} onChange={(e) => set({ comment: e.currentTarget.value })} />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} text={label('orders.close')} />
            <Button intent={Intent.PRIMARY} loading={requesting.isLoading} onClick={() => void send()} text={label('orders.profiles.send')} />
          </>
        }
      />
    </Dialog>
  );
}

function ReviewDialog({ profile, onClose }: { profile: ProviderProfile; onClose: () => void }) {
  const intl = useIntl();
  const [reason, setReason] = useState('');
  const [review, reviewing] = usePostSimProvidersProfilesByIdReviewMutation();
  const label = (id: string) => intl.formatMessage({ id });
  const send = async (approved: boolean) => {
    try {
      await review({ id: profile.id, body: { approved, reason: reason.trim() || undefined } }).unwrap();
      onClose();
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.profiles.submitError') });
    }
  };
  return (
    <Dialog isOpen onClose={onClose} title={`${label('orders.profiles.column.review')}: ${profile.name}`}>
      <DialogBody>
        <p>
          {profile.resellerName} · {profile.providerName} · {profile.sponsorName} · {label(`orders.simType.${profile.simType}`)} ·{' '}
          <span className="portal-ltr">{profile.imsiPrefix}</span>
        </p>
        {profile.comment && <p>{profile.comment}</p>}
        <FormGroup label={label('orders.reason')} labelFor="review-reason">
          <InputGroup id="review-reason" maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} text={label('orders.close')} />
            <Button
              intent={Intent.DANGER}
              disabled={!reason.trim()}
              loading={reviewing.isLoading}
              onClick={() => void send(false)}
              text={label('orders.profiles.deny')}
              data-testid="profile-deny"
            />
            <Button
              intent={Intent.SUCCESS}
              loading={reviewing.isLoading}
              onClick={() => void send(true)}
              text={label('orders.profiles.approve')}
              data-testid="profile-approve"
            />
          </>
        }
      />
    </Dialog>
  );
}

type Filters = Pick<ProfilePageArgs, 'sponsorId' | 'slotCount' | 'resellerId' | 'simType' | 'imsiPrefix' | 'searchKey'>;

/** The filters both lists share, as the specification names them. */
function FilterBar({ filters, onChange }: { filters: Filters; onChange: (next: Filters) => void }) {
  const intl = useIntl();
  const label = (id: string) => intl.formatMessage({ id });
  const { data: sponsors = [] } = entityEndpoints(findSchema('sponsor')!).list!.useQuery();
  const { data: resellers = [] } = useGetResellerInfoListQuery();
  const [prefix, setPrefix] = useState(filters.imsiPrefix ?? '');
  const [search, setSearch] = useState(filters.searchKey ?? '');
  const set = (patch: Filters) => onChange({ ...filters, ...patch });
  const num = (value: string) => (value ? Number(value) : undefined);
  return (
    <div className="portal-order-row portal-profile-filters" data-testid="profile-filters">
      <HTMLSelect
        aria-label={label('orders.profiles.sponsor')}
        value={filters.sponsorId ?? ''}
        onChange={(e) => set({ sponsorId: num(e.currentTarget.value) })}
      >
        <option value="">{label('orders.profiles.filter.anySponsor')}</option>
        {(sponsors as { id: number; name: string }[]).map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </HTMLSelect>
      <HTMLSelect aria-label={label('orders.profiles.slots')} value={filters.slotCount ?? ''} onChange={(e) => set({ slotCount: num(e.currentTarget.value) })}>
        <option value="">{label('orders.profiles.filter.anySlots')}</option>
        {[1, 2, 3, 4].map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </HTMLSelect>
      {resellers.length > 1 && (
        <HTMLSelect
          aria-label={label('orders.profiles.column.reseller')}
          value={filters.resellerId ?? ''}
          onChange={(e) => set({ resellerId: num(e.currentTarget.value) })}
          data-testid="profile-filter-reseller"
        >
          <option value="">{label('orders.profiles.filter.anyReseller')}</option>
          {resellers.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </HTMLSelect>
      )}
      <HTMLSelect
        aria-label={label('orders.field.simType')}
        value={filters.simType ?? ''}
        onChange={(e) => set({ simType: (e.currentTarget.value || undefined) as SimType | undefined })}
        data-testid="profile-filter-simtype"
      >
        <option value="">{label('orders.profiles.filter.anySimType')}</option>
        <option value="physical">{label('orders.simType.physical')}</option>
        <option value="esim">{label('orders.simType.esim')}</option>
      </HTMLSelect>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          set({ imsiPrefix: /^\d{1,15}$/.test(prefix) ? prefix : undefined, searchKey: search.trim() || undefined });
        }}
        className="portal-order-row"
      >
        <InputGroup
          aria-label={label('orders.profiles.imsiPrefix')}
          placeholder={label('orders.profiles.imsiPrefix')}
          inputMode="numeric"
          maxLength={15}
          value={prefix}
          onChange={(e) => setPrefix(e.currentTarget.value.replace(/\D/g, ''))}
          data-testid="profile-filter-prefix"
        />
        <InputGroup
          type="search"
          leftIcon={<SearchIcon />}
          aria-label={label('orders.profiles.filter.search')}
          placeholder={label('orders.profiles.filter.search')}
          maxLength={200}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="profile-filter-search"
        />
        <Button type="submit" text={label('orders.profiles.filter.apply')} data-testid="profile-filter-apply" />
      </form>
    </div>
  );
}

/** One list, paged and sorted on the server. */
function ProfileList({ list, filters, onOpen }: { list: 'profiles' | 'requests'; filters: Filters; onOpen?: (p: ProviderProfile) => void }) {
  const intl = useIntl();
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<GridSort>({ sortBy: 'name', sortDir: 'asc' });
  const key = JSON.stringify(filters);
  const [seen, setSeen] = useState(key);
  if (seen !== key) {
    // New filters start from the first page.
    setSeen(key);
    setPage(0);
  }
  const result = useGetSimProvidersProfilesPagedQuery({
    ...filters,
    list,
    page,
    size: PAGE_SIZE,
    sortBy: sort.sortBy as ProfilePageArgs['sortBy'],
    sortDir: sort.sortDir,
  });
  const data = result.data;
  const label = (id: string) => intl.formatMessage({ id });
  return (
    <Card className="portal-order-card" data-testid={`profile-list-${list}`}>
      <H4>
        <FormattedMessage id={`orders.profiles.list.${list}`} />
      </H4>
      {result.isError ? (
        <Callout intent={Intent.DANGER} role="alert">
          <FormattedMessage id="orders.loadError" />
        </Callout>
      ) : !data ? (
        <Loading />
      ) : (
        <>
          <EntityGrid
            schema={profileSchema}
            rows={data.items.map((p) => ({
              ...p,
              simType: label(`orders.simType.${p.simType}`),
              status: label(`orders.profiles.status.${p.status}`),
              resellerName: p.resellerName ?? label('orders.profiles.catalogue'),
              reason: p.reviewReason ?? p.comment ?? '',
            }))}
            sort={sort}
            onSortChange={(next) => {
              setSort(next);
              setPage(0);
            }}
            onOpenRow={(row) => {
              const profile = data.items.find((p) => p.id === row.id);
              if (profile && onOpen) onOpen(profile);
            }}
          />
          {data.items.length === 0 && <NonIdealState icon={<SearchIcon size={48} />} description={<FormattedMessage id="list.empty" />} />}
          <Pager page={data.currentPage + 1} pages={Math.max(1, data.totalPageCount)} total={data.totalItemsCount} onPage={(next) => setPage(next - 1)} />
        </>
      )}
    </Card>
  );
}

export default function OrderProfilesPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'orders.profiles.title' }));
  const isAdmin = useIsAdmin();
  const [requesting, setRequesting] = useState(false);
  const [reviewing, setReviewing] = useState<ProviderProfile>();
  const [filters, setFilters] = useState<Filters>({});
  const label = (id: string) => intl.formatMessage({ id });
  return (
    <div className="portal-page" data-testid="order-profiles">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="orders.profiles.title" />
        </H2>
        <div className="portal-page-actions">
          <Link to="/orders">
            <FormattedMessage id="orders.title" />
          </Link>
          {isAdmin && (
            <Link to="/orders/ranges" data-testid="orders-ranges-link">
              <FormattedMessage id="orders.ranges.title" />
            </Link>
          )}
          <Button
            icon={<PlusIcon />}
            intent={Intent.PRIMARY}
            onClick={() => setRequesting(true)}
            text={label('orders.profiles.request')}
            data-testid="profile-request"
          />
        </div>
      </header>
      <p className="portal-page-intro">
        <FormattedMessage id="orders.profiles.intro" />
      </p>
      <FilterBar filters={filters} onChange={setFilters} />
      <ProfileList list="profiles" filters={filters} />
      <ProfileList list="requests" filters={filters} onOpen={isAdmin ? (p) => p.status === 'pending' && setReviewing(p) : undefined} />
      {requesting && <RequestDialog isOpen onClose={() => setRequesting(false)} />}
      {reviewing && <ReviewDialog profile={reviewing} onClose={() => setReviewing(undefined)} />}
    </div>
  );
}
