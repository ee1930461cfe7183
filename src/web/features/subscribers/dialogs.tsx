/**
 * The subscriber page's dialogs: daily limit, pricing plan, credit, change MSISDN, SIM info and pairing a
 * device with the eSIM's QR code (drawn by the SIM card feature, whose screen shows it too). Each checks what it can before sending and shows the server's answer
 * under the field it names.
 */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Intent, Radio, RadioGroup } from '@blueprintjs/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { apiErrorOf, type QueryError } from '@web/core/apiErrors';
import { Loading } from '@web/ui/Loading';
import { formatCell } from '@web/engine/columns';
import { EsimActivation } from './sims/EsimActivation';
import { errorText, useOperations } from './operations';
import {
  QOS_BLOCK,
  useGetResellerInfoApiQosSpeedLimitsQuery,
  usePostSubscriberInfoApiMutation,
  usePostSubscriberInfoDailyLimitMutation,
  useGetSubscriberInfoSimInfoByIdQuery,
  useGetSubscriberInfoByIdPricingPlansQuery,
  type DailyLimit,
} from './subscriberApi';
import { useGetInventoryDevicesByIdChangesQuery, usePostInventoryMsisdnListQuery } from '@web/core/inventoryApi';
import { messageOr } from '@web/core/messages';
import type { PostSubscriberInfoDailyLimitApiArg } from './subscriberApi.gen';

type Throttling = PostSubscriberInfoDailyLimitApiArg['qosThrottling'];

interface DialogProps {
  subscriberId: number;
  onClose: () => void;
}

/** A dialog holding one small form: Enter submits, Cancel closes. */
export function FormDialog({
  title,
  testId,
  onClose,
  onSubmit,
  busy,
  submitLabel,
  children,
  error,
}: {
  title: string;
  testId: string;
  onClose: () => void;
  onSubmit: () => void;
  busy?: boolean;
  submitLabel?: string;
  children: ReactNode;
  error?: string;
}) {
  const intl = useIntl();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog isOpen onClose={onClose} title={title}>
      <form onSubmit={submit} noValidate data-testid={testId}>
        <DialogBody>
          {error && (
            <Callout intent={Intent.DANGER} className="portal-dialog-error" role="alert">
              {error}
            </Callout>
          )}
          {children}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{intl.formatMessage({ id: 'form.cancel' })}</Button>
              <Button type="submit" intent={Intent.PRIMARY} loading={busy} data-testid={`${testId}-submit`}>
                {submitLabel ?? intl.formatMessage({ id: 'form.save' })}
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** The message of the server's error naming `field`, translated; undefined when it names another. */
export function fieldMessage(intl: ReturnType<typeof useIntl>, error: QueryError, field: string): string | undefined {
  const found = apiErrorOf(error)?.fields?.find((f) => f.field === field);
  if (!found) return undefined;
  return messageOr(intl, found.messageId, found.message);
}

/** A number typed with a decimal point or a decimal comma. */
const decimal = (text: string) => Number(text.trim().replace(',', '.'));

const UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
type Unit = keyof typeof UNITS;

/** The daily limit's check: required and greater than 0 (a message id, or undefined when it holds). */
export function dailyLimitProblem(text: string): string | undefined {
  if (text.trim() === '') return 'validation.dailyLimit.required';
  const value = decimal(text);
  if (!Number.isFinite(value)) return 'validation.dailyLimit.positive';
  return value > 0 ? undefined : 'validation.dailyLimit.positive';
}

export function DailyLimitDialog({ subscriberId, current, onClose }: DialogProps & { current?: DailyLimit }) {
  const intl = useIntl();
  const start = current?.dailyLimitBytes ?? null;
  const startUnit: Unit = start !== null && start >= UNITS.GB && start % UNITS.GB === 0 ? 'GB' : 'MB';
  const [amount, setAmount] = useState(start === null ? '' : String(+(start / UNITS[startUnit]).toFixed(3)));
  const [unit, setUnit] = useState<Unit>(startUnit);
  const [throttle, setThrottle] = useState(current?.qosThrottling && current.qosThrottling !== QOS_BLOCK ? current.qosThrottling : '');
  const [mode, setMode] = useState<'block' | 'throttle'>(throttle ? 'throttle' : 'block');
  const [touched, setTouched] = useState(false);
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery();
  const [save, state] = usePostSubscriberInfoDailyLimitMutation();
  const problem = dailyLimitProblem(amount);
  const shown = touched ? problem : undefined;
  const serverProblem = fieldMessage(intl, state.error, 'dailyLimitBytes');
  const speedMissing = touched && mode === 'throttle' && !throttle;

  const submit = async () => {
    setTouched(true);
    if (problem || (mode === 'throttle' && !throttle)) return;
    const dailyLimitBytes = Math.round(decimal(amount) * UNITS[unit]);
    const result = await save({
      subscriberId,
      dailyLimitBytes: Math.max(1, dailyLimitBytes),
      qosThrottling: mode === 'block' ? QOS_BLOCK : (throttle as Throttling),
    });
    if (!result.error) onClose();
  };

  const limitError = shown ? intl.formatMessage({ id: shown }) : serverProblem;
  return (
    <FormDialog
      title={intl.formatMessage({ id: 'subscriber.dailyLimit.title' })}
      testId="daily-limit-dialog"
      onClose={onClose}
      onSubmit={submit}
      busy={state.isLoading}
      error={state.error && !serverProblem ? errorText(intl, state.error) : undefined}
    >
      <FormGroup
        label={intl.formatMessage({ id: 'subscriber.dailyLimit.amount' })}
        labelFor="daily-limit-amount"
        labelInfo={intl.formatMessage({ id: 'form.required' })}
        intent={limitError ? Intent.DANGER : Intent.NONE}
        helperText={limitError}
      >
        <div className="portal-inline-fields">
          <InputGroup
            id="daily-limit-amount"
            inputMode="decimal"
            value={amount}
            intent={limitError ? Intent.DANGER : Intent.NONE}
            onValueChange={(v) => {
              setAmount(v);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            data-testid="daily-limit-amount"
          />
          <HTMLSelect
            aria-label={intl.formatMessage({ id: 'subscriber.dailyLimit.unit' })}
            value={unit}
            onChange={(e) => setUnit(e.currentTarget.value as Unit)}
            options={Object.keys(UNITS)}
            data-testid="daily-limit-unit"
          />
        </div>
      </FormGroup>
      <RadioGroup
        label={intl.formatMessage({ id: 'subscriber.dailyLimit.whenReached' })}
        selectedValue={mode}
        onChange={(e) => setMode(e.currentTarget.value as 'block' | 'throttle')}
      >
        <Radio value="block" label={intl.formatMessage({ id: 'subscriber.dailyLimit.block' })} data-testid="daily-limit-block" />
        <Radio value="throttle" label={intl.formatMessage({ id: 'subscriber.dailyLimit.throttle' })} data-testid="daily-limit-throttle" />
      </RadioGroup>
      {mode === 'throttle' && (
        <FormGroup
          label={intl.formatMessage({ id: 'subscriber.dailyLimit.speed' })}
          labelFor="daily-limit-speed"
          intent={speedMissing ? Intent.DANGER : Intent.NONE}
          helperText={speedMissing ? intl.formatMessage({ id: 'subscriber.dailyLimit.speedRequired' }) : undefined}
        >
          <HTMLSelect id="daily-limit-speed" value={throttle} onChange={(e) => setThrottle(e.currentTarget.value)} data-testid="daily-limit-speed">
            <option value="">{intl.formatMessage({ id: 'form.select.placeholder' })}</option>
            {(speeds.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </HTMLSelect>
        </FormGroup>
      )}
    </FormDialog>
  );
}

/** Offers the plans the server accepts for this subscriber, the current one chosen. */
export function PricingPlanDialog({ subscriberId, currentPlanId, onClose }: DialogProps & { currentPlanId: number | null }) {
  const intl = useIntl();
  const plans = useGetSubscriberInfoByIdPricingPlansQuery(subscriberId);
  const [planId, setPlanId] = useState(currentPlanId && currentPlanId > 0 ? String(currentPlanId) : '');
  const [touched, setTouched] = useState(false);
  const [run, state] = usePostSubscriberInfoApiMutation();
  const { follow } = useOperations();
  const missing = touched && !planId;
  const submit = async () => {
    setTouched(true);
    if (!planId) return;
    const result = await run({ operation: 'pricing-plan', subscriberId, pricingPlanId: Number(planId) });
    if (!result.error) {
      follow('pricing-plan', result);
      onClose();
    }
  };
  const problem = missing ? intl.formatMessage({ id: 'validation.pricingPlan.required' }) : fieldMessage(intl, state.error, 'pricingPlanId');
  return (
    <FormDialog
      title={intl.formatMessage({ id: 'subscriber.action.pricingPlan' })}
      testId="pricing-plan-dialog"
      onClose={onClose}
      onSubmit={submit}
      busy={state.isLoading}
      error={state.error && !problem ? errorText(intl, state.error) : undefined}
    >
      <FormGroup
        label={intl.formatMessage({ id: 'entity.subscriber.field.pricingPlanId' })}
        labelFor="subscriber-plan"
        intent={problem ? Intent.DANGER : Intent.NONE}
        helperText={problem}
      >
        <HTMLSelect
          id="subscriber-plan"
          fill
          value={planId}
          onChange={(e) => {
            setPlanId(e.currentTarget.value);
            setTouched(true);
          }}
          data-testid="pricing-plan-select"
        >
          <option value="">{intl.formatMessage({ id: 'form.select.placeholder' })}</option>
          {(plans.data ?? []).map((p) => (
            <option key={p.pricingPlanId} value={p.pricingPlanId}>
              {p.pricingPlanName}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </FormDialog>
  );
}

/** An amount: more than 0, below 100000, at most two decimals. */
export function amountProblem(text: string): string | undefined {
  const value = text.trim().replace(',', '.');
  if (!value) return 'validation.amount.required';
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(value)) return 'validation.amount.invalid';
  return Number(value) > 0 && Number(value) < 100000 ? undefined : 'validation.amount.range';
}

export function CreditDialog({ subscriberId, onClose }: DialogProps) {
  const intl = useIntl();
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('');
  const [touched, setTouched] = useState(false);
  const [run, state] = usePostSubscriberInfoApiMutation();
  const { follow } = useOperations();
  const problem = amountProblem(amount);
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    const result = await run({
      operation: 'credit',
      subscriberId,
      amount: decimal(amount),
      ...(description.trim() ? { description: description.trim() } : {}),
    });
    if (!result.error) {
      follow('credit', result);
      onClose();
    }
  };
  const shown = touched && problem ? intl.formatMessage({ id: problem }) : fieldMessage(intl, state.error, 'amount');
  return (
    <FormDialog
      title={intl.formatMessage({ id: 'subscriber.action.credit' })}
      testId="credit-dialog"
      onClose={onClose}
      onSubmit={submit}
      busy={state.isLoading}
      error={state.error && !shown ? errorText(intl, state.error) : undefined}
    >
      <FormGroup
        label={intl.formatMessage({ id: 'subscriber.credit.amount' })}
        labelFor="credit-amount"
        labelInfo={intl.formatMessage({ id: 'form.required' })}
        intent={shown ? Intent.DANGER : Intent.NONE}
        helperText={shown}
      >
        <InputGroup
          id="credit-amount"
          inputMode="decimal"
          value={amount}
          onValueChange={(v) => {
            setAmount(v);
            setTouched(true);
          }}
          data-testid="credit-amount"
        />
      </FormGroup>
      <FormGroup label={intl.formatMessage({ id: 'subscriber.credit.description' })} labelFor="credit-description">
        <InputGroup id="credit-description" maxLength={250} value={description} onValueChange={setDescription} />
      </FormGroup>
    </FormDialog>
  );
}

const MSISDN = /^[0-9]{8,15}$/;

/** Free numbers of the MSISDN pool that may go to a subscriber of the reseller, to pick instead of typing one. */
function PoolNumbers({ resellerId, value, onPick }: { resellerId: number; value: string; onPick: (msisdn: string) => void }) {
  const intl = useIntl();
  const { data } = usePostInventoryMsisdnListQuery({ assigned: false, subscriberResellerId: resellerId, page: { page: 0, size: 100 } });
  if (!data?.items.length) return null;
  return (
    <FormGroup
      label={intl.formatMessage({ id: 'subscriber.msisdn.pool' })}
      labelFor="pool-msisdn"
      helperText={intl.formatMessage({ id: 'subscriber.msisdn.poolHint' })}
    >
      <HTMLSelect
        id="pool-msisdn"
        fill
        value={data.items.some((n) => n.msisdn === value) ? value : ''}
        onChange={(e) => onPick(e.currentTarget.value)}
        data-testid="pool-msisdn"
      >
        <option value="">{intl.formatMessage({ id: 'subscriber.msisdn.poolChoose' })}</option>
        {data.items.map((n) => (
          <option key={n.msisdn} value={n.msisdn}>
            {`+${n.msisdn} · ${n.country} · ${n.supplierName}`}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

export function ChangeMsisdnDialog({ subscriberId, resellerId, current, onClose }: DialogProps & { resellerId?: number; current: string | null }) {
  const intl = useIntl();
  const [msisdn, setMsisdn] = useState('');
  const [touched, setTouched] = useState(false);
  const [run, state] = usePostSubscriberInfoApiMutation();
  const { follow } = useOperations();
  const problem = !msisdn.trim() ? 'validation.msisdn.required' : !MSISDN.test(msisdn.trim()) ? 'validation.msisdn.invalid' : undefined;
  const submit = async () => {
    setTouched(true);
    if (problem) return;
    const result = await run({ operation: 'modify-msisdn', subscriberId, msisdn: msisdn.trim() });
    if (!result.error) {
      follow('modify-msisdn', result);
      onClose();
    }
  };
  const shown = touched && problem ? intl.formatMessage({ id: problem }) : fieldMessage(intl, state.error, 'msisdn');
  return (
    <FormDialog
      title={intl.formatMessage({ id: 'subscriber.action.changeMsisdn' })}
      testId="msisdn-dialog"
      onClose={onClose}
      onSubmit={submit}
      busy={state.isLoading}
      error={state.error && !shown ? errorText(intl, state.error) : undefined}
    >
      <p>
        <FormattedMessage id="subscriber.msisdn.current" values={{ msisdn: current ?? intl.formatMessage({ id: 'format.none' }) }} />
      </p>
      {resellerId !== undefined && (
        <PoolNumbers
          resellerId={resellerId}
          value={msisdn}
          onPick={(v) => {
            setMsisdn(v);
            setTouched(true);
          }}
        />
      )}
      <FormGroup
        label={intl.formatMessage({ id: 'subscriber.msisdn.new' })}
        labelFor="new-msisdn"
        labelInfo={intl.formatMessage({ id: 'form.required' })}
        helperText={shown ?? intl.formatMessage({ id: 'subscriber.msisdn.hint' })}
        intent={shown ? Intent.DANGER : Intent.NONE}
      >
        <InputGroup
          id="new-msisdn"
          inputMode="numeric"
          value={msisdn}
          onValueChange={(v) => {
            setMsisdn(v);
            setTouched(true);
          }}
          data-testid="new-msisdn"
        />
      </FormGroup>
    </FormDialog>
  );
}

/** Label and value pairs as a definition list; empty values read as a dash. */
export function Facts({ items, testId }: { items: [string, ReactNode][]; testId?: string }) {
  const intl = useIntl();
  return (
    <dl className="portal-facts" data-testid={testId}>
      {items.map(([label, value]) => (
        <div key={label} className="portal-fact">
          <dt>{label}</dt>
          <dd>{value === null || value === undefined || value === '' ? intl.formatMessage({ id: 'format.none' }) : value}</dd>
        </div>
      ))}
    </dl>
  );
}

export function SimInfoDialog({ subscriberId, onClose }: DialogProps) {
  const intl = useIntl();
  const { data, error, isLoading } = useGetSubscriberInfoSimInfoByIdQuery(subscriberId);
  const label = (id: string) => intl.formatMessage({ id: `subscriber.sim.${id}` });
  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'subscriber.action.simInfo' })}>
      <DialogBody data-testid="sim-info-dialog">
        {isLoading ? (
          <Loading />
        ) : error ? (
          <Callout intent={Intent.DANGER}>{errorText(intl, error)}</Callout>
        ) : (
          data && (
            <Facts
              testId="sim-info"
              items={[
                [label('iccid'), <span className="portal-mono">{data.iccid}</span>],
                [label('simType'), data.simType ? messageOr(intl, `subscriber.simType.${data.simType}`, data.simType) : null],
                [label('status'), data.status ? messageOr(intl, `subscriber.simStatus.${data.status}`, data.status) : null],
                [label('statusDate'), formatCell(intl, 'datetime', data.statusDate)],
                [label('profileType'), data.profileType],
                [label('batch'), data.batch],
                [label('cost'), data.cost === null ? null : formatCell(intl, 'money', data.cost)],
                [label('serviceProviderName'), data.serviceProviderName],
              ]}
            />
          )
        )}
      </DialogBody>
      <DialogFooter actions={<Button onClick={onClose}>{intl.formatMessage({ id: 'subscriber.close' })}</Button>} />
    </Dialog>
  );
}

/** The eSIM's activation code as a QR code to scan with the device, and sent by e-mail on request. */
/** The devices the SIM has been in, newest first, as the network reported them. */
function DeviceHistory({ subscriberId }: { subscriberId: number }) {
  const intl = useIntl();
  const { data } = useGetInventoryDevicesByIdChangesQuery(subscriberId);
  if (!data?.length) return null;
  return (
    <div className="portal-device-history" data-testid="device-history">
      <strong>{intl.formatMessage({ id: 'subscriber.pair.history' })}</strong>
      <ul>
        {data.slice(0, 5).map((c) => (
          <li key={c.id}>
            {intl.formatMessage(
              { id: 'subscriber.pair.change' },
              {
                at: intl.formatDate(c.at, { dateStyle: 'medium' }),
                device: c.make ? `${c.make} ${c.model ?? ''}`.trim() : intl.formatMessage({ id: 'format.none' }),
                imei: c.imei ?? intl.formatMessage({ id: 'format.none' }),
              },
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PairDeviceDialog({ subscriberId, onClose }: DialogProps) {
  const intl = useIntl();
  const { data, error, isLoading } = useGetSubscriberInfoSimInfoByIdQuery(subscriberId);
  const code = data?.simType === 'esim' ? data.activationCode : null;
  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'subscriber.action.pairDevice' })}>
      <DialogBody data-testid="pair-device-dialog">
        <DeviceHistory subscriberId={subscriberId} />
        {isLoading ? (
          <Loading />
        ) : error ? (
          <Callout intent={Intent.DANGER}>{errorText(intl, error)}</Callout>
        ) : !code || !data ? (
          <Callout intent={Intent.WARNING}>{intl.formatMessage({ id: 'validation.simCard.notEsim' })}</Callout>
        ) : (
          <EsimActivation iccid={data.iccid} code={code} />
        )}
      </DialogBody>
      <DialogFooter actions={<Button onClick={onClose}>{intl.formatMessage({ id: 'subscriber.close' })}</Button>} />
    </Dialog>
  );
}
