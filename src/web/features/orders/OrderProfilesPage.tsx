/**
 * `/orders/profiles`: the provider profiles the caller sees and the profile requests. A reseller requests a profile
 * (provider, sponsor, slots, SIM type, IMSI prefix); the administrator approves or denies a pending request with a
 * reason. Only approved profiles are offered in the order wizard.
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
  HTMLTable,
  InputGroup,
  Intent,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { PlusIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import type { SimType } from '@shared/orders';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { apiErrorMessage } from './errors';
import {
  useGetSimProvidersProfilesQuery,
  useGetSimProvidersQuery,
  usePostSimProvidersProfilesByIdReviewMutation,
  usePostSimProvidersProfilesRequestMutation,
  type ProviderProfile,
} from './ordersApi';
import './orders.css';

const STATUS_INTENT = { approved: Intent.SUCCESS, pending: Intent.WARNING, denied: Intent.DANGER } as const;

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

function Review({ profile }: { profile: ProviderProfile }) {
  const intl = useIntl();
  const [reason, setReason] = useState('');
  const [review, reviewing] = usePostSimProvidersProfilesByIdReviewMutation();
  const send = async (approved: boolean) => {
    try {
      await review({ id: profile.id, body: { approved, reason: reason.trim() || undefined } }).unwrap();
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.profiles.submitError') });
    }
  };
  return (
    <div className="portal-order-row">
      <InputGroup
        small
        aria-label={intl.formatMessage({ id: 'orders.reason' })}
        placeholder={intl.formatMessage({ id: 'orders.reason' })}
        maxLength={500}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
      />
      <Button
        small
        intent={Intent.SUCCESS}
        loading={reviewing.isLoading}
        onClick={() => void send(true)}
        text={intl.formatMessage({ id: 'orders.profiles.approve' })}
      />
      <Button
        small
        intent={Intent.DANGER}
        disabled={!reason.trim()}
        loading={reviewing.isLoading}
        onClick={() => void send(false)}
        text={intl.formatMessage({ id: 'orders.profiles.deny' })}
      />
    </div>
  );
}

export default function OrderProfilesPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'orders.profiles.title' }));
  const isAdmin = useIsAdmin();
  const [requesting, setRequesting] = useState(false);
  const { data: profiles, isError } = useGetSimProvidersProfilesQuery({});
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
      {isError && (
        <Callout intent={Intent.DANGER}>
          <FormattedMessage id="orders.loadError" />
        </Callout>
      )}
      {!profiles ? (
        <Loading />
      ) : (
        <Card className="portal-order-card">
          <H4>
            <FormattedMessage id="orders.profiles.list" />
          </H4>
          <HTMLTable compact striped className="portal-order-table">
            <thead>
              <tr>
                {['name', 'provider', 'sponsor', 'slots', 'simType', 'imsiPrefix', 'reseller', 'status', 'reason'].map((c) => (
                  <th key={c}>{label(`orders.profiles.column.${c}`)}</th>
                ))}
                {isAdmin && <th>{label('orders.profiles.column.review')}</th>}
              </tr>
            </thead>
            <tbody>
              {profiles.map((p) => (
                <tr key={p.id}>
                  <td>{p.name}</td>
                  <td>{p.providerName}</td>
                  <td>{p.sponsorName}</td>
                  <td>{p.slotCount}</td>
                  <td>{label(`orders.simType.${p.simType}`)}</td>
                  <td className="portal-ltr">{p.imsiPrefix}</td>
                  <td>{p.resellerName ?? label('orders.profiles.catalogue')}</td>
                  <td>
                    <Tag minimal intent={STATUS_INTENT[p.status]}>
                      {label(`orders.profiles.status.${p.status}`)}
                    </Tag>
                  </td>
                  <td>{p.reviewReason ?? p.comment ?? ''}</td>
                  {isAdmin && <td>{p.status === 'pending' && <Review profile={p} />}</td>}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
      )}
      {requesting && <RequestDialog isOpen onClose={() => setRequesting(false)} />}
    </div>
  );
}
