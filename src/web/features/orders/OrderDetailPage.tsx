/**
 * `/orders/{uuid}`: one order with its approval and billing details, price, reservation, slots and timeline, and
 * the actions its state allows the caller (the server says which): financial approval or denial (with a reason),
 * and for the administrator technical review, resource allocation, discounts, placing with the vendor, delivery
 * and the keys download; cancellation before the order is placed.
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
  NumericInput,
  Tag,
  TextArea,
} from '@blueprintjs/core';
import { BanCircleIcon, DownloadIcon, TickIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'react-router-dom';
import { httpStatus } from '@web/core/apiErrors';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { useIsAdmin } from '@web/core/useIsAdmin';
import { usePageTitle } from '@web/engine/pageTitle';
import { Loading } from '@web/ui/Loading';
import { showToast } from '@web/ui/toaster';
import { apiErrorMessage } from './errors';
import {
  useDownloadOrderKeysMutation,
  useGetSimOrdersByUuidQuery,
  usePlaceOrderMutation,
  usePostSimOrdersByUuidAdminDiscountsCalculateMutation,
  usePostSimOrdersByUuidAdminDiscountsMutation,
  usePostSimOrdersByUuidAdminResourcesMutation,
  usePostSimOrdersByUuidAdminTechnicalApprovalByApprovedMutation,
  usePostSimOrdersByUuidCancelMutation,
  usePostSimOrdersByUuidDeliverMutation,
  usePostSimOrdersByUuidFinancialApprovalByApprovedMutation,
  type OrderDetail,
} from './ordersApi';
import './orders.css';

type ReasonAction = 'denyFinancial' | 'denyTechnical' | 'cancel';
const STATUS_INTENT: Record<string, Intent> = {
  delivered: Intent.SUCCESS,
  placed: Intent.PRIMARY,
  financially_denied: Intent.DANGER,
  technically_denied: Intent.DANGER,
  cancelled: Intent.WARNING,
};

function ReasonDialog({
  action,
  onClose,
  onConfirm,
  busy,
}: {
  action?: ReasonAction;
  onClose: () => void;
  onConfirm: (reason: string) => void;
  busy: boolean;
}) {
  const intl = useIntl();
  const [reason, setReason] = useState('');
  return (
    <Dialog isOpen={!!action} onClose={onClose} title={action ? intl.formatMessage({ id: `orders.action.${action}` }) : ''}>
      <DialogBody>
        <FormGroup
          label={intl.formatMessage({ id: 'orders.reason' })}
          labelFor="order-reason"
          intent={reason.trim() ? Intent.NONE : Intent.DANGER}
          helperText={reason.trim() ? undefined : intl.formatMessage({ id: 'order.reason.required' })}
        >
          <TextArea id="order-reason" data-testid="order-reason" fill maxLength={500} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose} text={intl.formatMessage({ id: 'orders.close' })} />
            <Button
              intent={Intent.DANGER}
              disabled={!reason.trim()}
              loading={busy}
              onClick={() => onConfirm(reason.trim())}
              text={intl.formatMessage({ id: 'orders.confirm' })}
              data-testid="order-reason-confirm"
            />
          </>
        }
      />
    </Dialog>
  );
}

function Allocation({ order, onDone }: { order: OrderDetail; onDone: (p: Promise<unknown>) => void }) {
  const intl = useIntl();
  const { data: sponsors = [] } = entityEndpoints(findSchema('sponsor')!).list!.useQuery();
  const [chosen, setChosen] = useState<number[]>(order.slots.map((s) => s.sponsorId));
  const [allocate, allocating] = usePostSimOrdersByUuidAdminResourcesMutation();
  return (
    <Card className="portal-order-card" data-testid="order-allocation">
      <H4>
        <FormattedMessage id="orders.allocation.title" />
      </H4>
      {chosen.map((id, i) => (
        <FormGroup key={i} inline label={intl.formatMessage({ id: 'orders.wizard.slot' }, { slot: i + 1 })} labelFor={`alloc-${i}`}>
          <HTMLSelect id={`alloc-${i}`} value={id} onChange={(e) => setChosen(chosen.map((v, j) => (j === i ? Number(e.currentTarget.value) : v)))}>
            {(sponsors as { id: number; name: string }[]).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      ))}
      <Button
        intent={Intent.PRIMARY}
        loading={allocating.isLoading}
        data-testid="order-allocate"
        onClick={() => onDone(allocate({ uuid: order.uuid, body: { slots: chosen.map((sponsorId, i) => ({ slot: i + 1, sponsorId })) } }).unwrap())}
        text={intl.formatMessage({ id: 'orders.action.allocate' })}
      />
    </Card>
  );
}

function Discount({ order, onDone }: { order: OrderDetail; onDone: (p: Promise<unknown>) => void }) {
  const intl = useIntl();
  const [description, setDescription] = useState('');
  const [kind, setKind] = useState<'rate' | 'value'>('rate');
  const [amount, setAmount] = useState(0);
  const [calculate, calculated] = usePostSimOrdersByUuidAdminDiscountsCalculateMutation();
  const [save, saving] = usePostSimOrdersByUuidAdminDiscountsMutation();
  const body = { description: description.trim() || undefined, [kind]: amount };
  return (
    <Card className="portal-order-card" data-testid="order-discount">
      <H4>
        <FormattedMessage id="orders.discount.title" />
      </H4>
      <div className="portal-order-row">
        <InputGroup
          aria-label={intl.formatMessage({ id: 'orders.discount.description' })}
          placeholder={intl.formatMessage({ id: 'orders.discount.description' })}
          maxLength={100}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <HTMLSelect
          aria-label={intl.formatMessage({ id: 'orders.discount.kind' })}
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as 'rate' | 'value')}
        >
          <option value="rate">{intl.formatMessage({ id: 'orders.discount.rate' })}</option>
          <option value="value">{intl.formatMessage({ id: 'orders.discount.value' }, { currency: order.currency })}</option>
        </HTMLSelect>
        <NumericInput
          aria-label={intl.formatMessage({ id: 'orders.discount.amount' })}
          min={0}
          max={kind === 'rate' ? 100 : undefined}
          value={amount}
          onValueChange={(v) => setAmount(Number.isFinite(v) ? v : 0)}
        />
        <Button
          onClick={() => void calculate({ uuid: order.uuid, body })}
          loading={calculated.isLoading}
          text={intl.formatMessage({ id: 'orders.discount.calculate' })}
        />
        <Button
          intent={Intent.PRIMARY}
          loading={saving.isLoading}
          onClick={() => onDone(save({ uuid: order.uuid, body }).unwrap())}
          text={intl.formatMessage({ id: 'orders.discount.save' })}
        />
      </div>
      {calculated.data && (
        <p data-testid="discount-preview">
          {intl.formatMessage(
            { id: 'orders.discount.preview' },
            { total: intl.formatNumber(calculated.data.total, { style: 'currency', currency: order.currency }) },
          )}
        </p>
      )}
    </Card>
  );
}

export default function OrderDetailPage() {
  const intl = useIntl();
  const { uuid = '' } = useParams();
  const isAdmin = useIsAdmin();
  const { data: order, error, isLoading } = useGetSimOrdersByUuidQuery(uuid);
  usePageTitle(order ? order.batchName : intl.formatMessage({ id: 'orders.detail.title' }));
  const [financial, financialState] = usePostSimOrdersByUuidFinancialApprovalByApprovedMutation();
  const [technical, technicalState] = usePostSimOrdersByUuidAdminTechnicalApprovalByApprovedMutation();
  const [cancel, cancelState] = usePostSimOrdersByUuidCancelMutation();
  const [place, placing] = usePlaceOrderMutation();
  const [deliver, delivering] = usePostSimOrdersByUuidDeliverMutation();
  const [keys, downloading] = useDownloadOrderKeysMutation();
  const [reasonFor, setReasonFor] = useState<ReasonAction>();

  if (isLoading) return <Loading />;
  if (!order)
    return (
      <Callout intent={Intent.DANGER} role="alert">
        <FormattedMessage id={httpStatus(error) === 404 ? 'orders.notFound' : 'orders.loadError'} />
      </Callout>
    );

  const run = async (p: Promise<unknown>, done = 'orders.done') => {
    try {
      await p;
      showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: done }) });
      return true;
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.actionError') });
      return false;
    }
  };
  const can = (a: string) => order.actions.includes(a);
  const money = (v: number, currency = order.currency) => intl.formatNumber(v, { style: 'currency', currency });
  const text = (v: string | null | undefined) => v ?? '—';
  const date = (v: string | null | undefined) => (v ? intl.formatDate(v, { dateStyle: 'medium', timeStyle: 'short' }) : '—');
  const review = (v: string | null) => (v ? intl.formatMessage({ id: `orders.review.${v}` }) : intl.formatMessage({ id: 'orders.review.pending' }));
  const onReason = async (reason: string) => {
    const p =
      reasonFor === 'denyFinancial'
        ? financial({ uuid, approved: false, body: { reason } }).unwrap()
        : reasonFor === 'denyTechnical'
          ? technical({ uuid, approved: false, body: { reason } }).unwrap()
          : cancel({ uuid, body: { reason } }).unwrap();
    if (await run(p)) setReasonFor(undefined);
  };
  const p = order.price;

  return (
    <div className="portal-page portal-order-detail" data-testid="order-detail">
      <header className="portal-page-header">
        <H2>
          {order.batchName}{' '}
          <Tag large intent={STATUS_INTENT[order.orderStatus] ?? Intent.NONE} data-testid="order-status">
            {intl.formatMessage({ id: `orders.status.${order.orderStatus}` })}
          </Tag>
        </H2>
        <div className="portal-page-actions">
          <Link to="/orders?tab=list">
            <FormattedMessage id="orders.backToList" />
          </Link>
        </div>
      </header>

      <div className="portal-order-actions" data-testid="order-actions">
        {can('financialApproval') && (
          <>
            <Button
              intent={Intent.SUCCESS}
              icon={<TickIcon />}
              loading={financialState.isLoading}
              onClick={() => void run(financial({ uuid, approved: true, body: {} }).unwrap())}
              text={intl.formatMessage({ id: 'orders.action.approveFinancial' })}
              data-testid="order-approve-financial"
            />
            <Button
              intent={Intent.DANGER}
              icon={<BanCircleIcon />}
              onClick={() => setReasonFor('denyFinancial')}
              text={intl.formatMessage({ id: 'orders.action.denyFinancial' })}
              data-testid="order-deny-financial"
            />
          </>
        )}
        {can('technicalApproval') && (
          <>
            <Button
              intent={Intent.SUCCESS}
              icon={<TickIcon />}
              loading={technicalState.isLoading}
              onClick={() => void run(technical({ uuid, approved: true, body: {} }).unwrap())}
              text={intl.formatMessage({ id: 'orders.action.approveTechnical' })}
              data-testid="order-approve-technical"
            />
            <Button
              intent={Intent.DANGER}
              icon={<BanCircleIcon />}
              onClick={() => setReasonFor('denyTechnical')}
              text={intl.formatMessage({ id: 'orders.action.denyTechnical' })}
              data-testid="order-deny-technical"
            />
          </>
        )}
        {can('place') && (
          <Button
            intent={Intent.PRIMARY}
            loading={placing.isLoading}
            onClick={() => void run(place(uuid).unwrap())}
            text={intl.formatMessage({ id: 'orders.action.place' })}
            data-testid="order-place"
          />
        )}
        {can('deliver') && (
          <Button
            intent={Intent.PRIMARY}
            loading={delivering.isLoading}
            onClick={() => void run(deliver(uuid).unwrap())}
            text={intl.formatMessage({ id: 'orders.action.deliver' })}
            data-testid="order-deliver"
          />
        )}
        {isAdmin && order.keysAvailable && (
          <Button
            icon={<DownloadIcon />}
            loading={downloading.isLoading}
            onClick={() => void run(keys(uuid).unwrap(), 'orders.keys.downloaded')}
            text={intl.formatMessage({ id: 'orders.action.keys' })}
            data-testid="order-keys"
          />
        )}
        {can('cancel') && (
          <Button
            intent={Intent.WARNING}
            variant="outlined"
            onClick={() => setReasonFor('cancel')}
            text={intl.formatMessage({ id: 'orders.action.cancel' })}
            data-testid="order-cancel"
          />
        )}
      </div>

      <div className="portal-order-grid">
        <Card className="portal-order-card">
          <H4>
            <FormattedMessage id="orders.detail.approval" />
          </H4>
          <dl className="portal-order-summary">
            <dt>{intl.formatMessage({ id: 'orders.field.resellerName' })}</dt>
            <dd>{order.resellerName}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.createdBy' })}</dt>
            <dd>{text(order.createdBy)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.orderDate' })}</dt>
            <dd>{date(order.orderDate)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.financialReview' })}</dt>
            <dd>{review(order.financialReview)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.technicalReview' })}</dt>
            <dd>{review(order.technicalReview)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.fourEyes' })}</dt>
            <dd>{intl.formatMessage({ id: order.fourEyes ? 'orders.yes' : 'orders.no' })}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.simType' })}</dt>
            <dd>
              {intl.formatMessage({ id: `orders.simType.${order.simType}` })} · {intl.formatMessage({ id: `orders.simSize.${order.simSize}` })}
            </dd>
            <dt>{intl.formatMessage({ id: 'orders.field.amount' })}</dt>
            <dd>{intl.formatNumber(order.amount)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.provider' })}</dt>
            <dd>{order.simProvider}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.profile' })}</dt>
            <dd>{text(order.profile)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.roamingProfile' })}</dt>
            <dd>{text(order.roamingProfile)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.delivery' })}</dt>
            <dd>{text(order.deliveryEmail ?? order.deliveryAddress)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.field.vendorReference' })}</dt>
            <dd>{text(order.vendorReference)}</dd>
          </dl>
        </Card>
        <Card className="portal-order-card" data-testid="order-billing">
          <H4>
            <FormattedMessage id="orders.detail.billing" />
          </H4>
          <dl className="portal-order-summary">
            <dt>{intl.formatMessage({ id: 'orders.price.unitPrice' })}</dt>
            <dd>{money(p.unitPrice)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.price.totalUnitPrice' })}</dt>
            <dd>{money(p.totalUnitPrice)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.price.additionalSlotCharge' })}</dt>
            <dd>{money(p.additionalSlotCharge)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.price.artworkCharge' })}</dt>
            <dd>{money(p.artworkCharge)}</dd>
            <dt data-testid="order-fee-below-moq">
              <FormattedMessage id="orders.price.feeBelowMoq" values={{ moq: <bdi>{intl.formatNumber(p.moq)}</bdi> }} />
            </dt>
            <dd>{money(p.feeBelowMoq)}</dd>
            <dt>{intl.formatMessage({ id: 'orders.price.discount' })}</dt>
            <dd>
              {money(p.discount.value ? -p.discount.value : 0)} ({intl.formatNumber(p.discount.rate / 100, { style: 'percent', minimumFractionDigits: 2 })})
              {p.discount.description ? ` · ${p.discount.description}` : ''}
            </dd>
            <dt>{intl.formatMessage({ id: 'orders.price.total' })}</dt>
            <dd data-testid="order-detail-total">
              <strong>{money(p.total)}</strong>
            </dd>
            <dt>{intl.formatMessage({ id: 'orders.reservation' })}</dt>
            <dd data-testid="order-reservation">
              {money(order.reservation.amount, 'USD')} · {order.reservation.state ? intl.formatMessage({ id: `orders.hold.${order.reservation.state}` }) : '—'}
            </dd>
          </dl>
        </Card>
      </div>

      <Card className="portal-order-card">
        <H4>
          <FormattedMessage id="orders.detail.resources" />
        </H4>
        <HTMLTable compact striped className="portal-order-table">
          <thead>
            <tr>
              <th>{intl.formatMessage({ id: 'orders.slot' })}</th>
              <th>{intl.formatMessage({ id: 'orders.field.sponsors' })}</th>
              <th>{intl.formatMessage({ id: 'entity.simOrder.field.imsiRange' })}</th>
            </tr>
          </thead>
          <tbody>
            {order.slots.map((s) => (
              <tr key={s.slot}>
                <td>{s.slot}</td>
                <td>{s.sponsorName}</td>
                <td className="portal-ltr">{s.imsiFrom ? `${s.imsiFrom} – ${s.imsiTo}` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <dl className="portal-order-summary">
          <dt>{intl.formatMessage({ id: 'entity.simOrder.field.iccidRange' })}</dt>
          <dd className="portal-ltr" data-testid="order-iccid-range">
            {text(order.iccidRange)}
          </dd>
          <dt>{intl.formatMessage({ id: 'entity.simOrder.field.msisdnRange' })}</dt>
          <dd className="portal-ltr">{text(order.msisdnRange)}</dd>
        </dl>
      </Card>

      {can('allocate') && <Allocation order={order} onDone={(p) => void run(p)} />}
      {can('discount') && <Discount order={order} onDone={(p) => void run(p)} />}

      <Card className="portal-order-card" data-testid="order-timeline">
        <H4>
          <FormattedMessage id="orders.detail.timeline" />
        </H4>
        <ol className="portal-order-timeline">
          {order.timeline.map((e) => (
            <li key={e.id}>
              <span className="portal-order-when">{date(e.at)}</span> <strong>{intl.formatMessage({ id: `orders.event.${e.action}` })}</strong>
              {e.toStatus && <Tag minimal>{intl.formatMessage({ id: `orders.status.${e.toStatus}` })}</Tag>} {e.username && <span>· {e.username}</span>}
              {e.reason && <div className="portal-order-reason">{e.reason}</div>}
            </li>
          ))}
        </ol>
        {order.keyDownloads && order.keyDownloads.length > 0 && (
          <p>
            <FormattedMessage id="orders.keys.downloads" values={{ count: order.keyDownloads.length }} />
          </p>
        )}
      </Card>

      <ReasonDialog
        key={reasonFor ?? 'none'}
        action={reasonFor}
        busy={financialState.isLoading || technicalState.isLoading || cancelState.isLoading}
        onClose={() => setReasonFor(undefined)}
        onConfirm={(r) => void onReason(r)}
      />
    </div>
  );
}
