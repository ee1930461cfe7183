/**
 * The create SIM order wizard: who orders, SIM type (chosen before going on), sponsor IMSIs, roaming profile, a
 * custom IMSI range, provider profile or service provider name, amount, delivery, artwork and a summary priced live
 * by the server. Its state survives moving between steps and a reload (sessionStorage), and is cleared on submit.
 */
import { Button, Callout, Card, FileInput, FormGroup, HTMLSelect, InputGroup, Intent, NumericInput, Radio, RadioGroup, Tag } from '@blueprintjs/core';
import { ArrowLeftIcon, ArrowRightIcon, TickIcon } from '@blueprintjs/icons';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router-dom';
import { ARTWORK_MAX_BYTES, MAX_SLOTS, SIZES_OF, type OrderCurrency, type SimSize, type SimType } from '@shared/orders';
import { apiErrorMessage } from './errors';
import { useGetResellerInfoListQuery } from '@web/core/authApi';
import { entityEndpoints } from '@web/core/endpoints';
import { findSchema } from '@web/core/schemas';
import { useGetRoamingProfilesQuery } from '@web/core/subscriberCommonApi';
import { useCaller } from '@web/core/useCaller';
import { showToast } from '@web/ui/toaster';
import { checkArtwork, type ArtworkCheck } from './artworkInfo';
import {
  useGetSimOrdersEfConfigQuery,
  useGetSimProvidersProfilesQuery,
  useGetSimProvidersQuery,
  usePostSimOrdersPriceQuery,
  usePostSimOrdersSubmitMutation,
  useUploadArtworkMutation,
} from './ordersApi';

export const WIZARD_KEY = 'portal.simOrderWizard';

export interface WizardState {
  step: number;
  resellerId?: number;
  simType?: SimType;
  simSize?: SimSize;
  sponsorIds: (number | undefined)[];
  roamingProfileId?: number;
  customImsiFrom: string;
  customImsiTo: string;
  providerId?: number;
  profileMode: 'profile' | 'name';
  providerProfileId?: number;
  serviceProviderName: string;
  efConfig?: string;
  amount: number;
  currency: OrderCurrency;
  batchName: string;
  deliveryMode: 'email' | 'address';
  deliveryEmail: string;
  deliveryAddressId?: number;
  artwork?: { id: number; fileName: string; check: ArtworkCheck };
}

const INITIAL: WizardState = {
  step: 0,
  sponsorIds: [undefined],
  customImsiFrom: '',
  customImsiTo: '',
  profileMode: 'profile',
  serviceProviderName: '',
  amount: 500,
  currency: 'USD',
  batchName: '',
  deliveryMode: 'email',
  deliveryEmail: '',
};

export const STEPS = ['who', 'simType', 'sponsors', 'roaming', 'imsiRange', 'profile', 'amount', 'delivery', 'artwork', 'summary'] as const;

function load(): WizardState {
  try {
    const saved = sessionStorage.getItem(WIZARD_KEY);
    return saved ? { ...INITIAL, ...(JSON.parse(saved) as Partial<WizardState>) } : INITIAL;
  } catch {
    return INITIAL;
  }
}

const sponsorEndpoints = () => entityEndpoints(findSchema('sponsor')!);
const addressEndpoints = () => entityEndpoints(findSchema('address')!);
const IMSI = /^\d{15}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Why the step cannot be left forward (a message id), or undefined. */
export function stepProblem(state: WizardState, step: number): string | undefined {
  switch (STEPS[step]) {
    case 'simType':
      if (!state.simType) return 'order.simType.required';
      if (!state.simSize || !SIZES_OF[state.simType].includes(state.simSize)) return 'order.simSize.invalid';
      return undefined;
    case 'sponsors':
      return state.sponsorIds.some((id) => id === undefined) || new Set(state.sponsorIds).size !== state.sponsorIds.length
        ? 'order.sponsors.invalid'
        : undefined;
    case 'imsiRange':
      if (!state.customImsiFrom && !state.customImsiTo) return undefined;
      if (!IMSI.test(state.customImsiFrom) || !IMSI.test(state.customImsiTo)) return 'validation.imsi.invalid';
      return BigInt(state.customImsiTo) - BigInt(state.customImsiFrom) + 1n < BigInt(state.amount) ? 'order.imsiRange.tooSmall' : undefined;
    case 'profile':
      if (!state.providerId) return 'order.provider.unknown';
      return state.profileMode === 'profile'
        ? state.providerProfileId
          ? undefined
          : 'order.profileOrName.required'
        : state.serviceProviderName.trim()
          ? undefined
          : 'order.profileOrName.required';
    case 'amount':
      return Number.isInteger(state.amount) && state.amount >= 1 && state.amount <= 100_000 ? undefined : 'order.amount.invalid';
    case 'delivery':
      return state.deliveryMode === 'email'
        ? EMAIL.test(state.deliveryEmail)
          ? undefined
          : 'validation.email.invalid'
        : state.deliveryAddressId
          ? undefined
          : 'order.delivery.required';
    default:
      return undefined;
  }
}

function Step({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="portal-order-step" aria-labelledby={`order-step-${title}`}>
      <h3 id={`order-step-${title}`}>
        <FormattedMessage id={`orders.wizard.step.${title}`} />
      </h3>
      {intro && (
        <p className="portal-page-intro">
          <FormattedMessage id={intro} />
        </p>
      )}
      {children}
    </section>
  );
}

export default function OrderWizard() {
  const intl = useIntl();
  const navigate = useNavigate();
  const caller = useCaller();
  const [state, setState] = useState<WizardState>(load);
  const [tried, setTried] = useState(false);
  const set = (patch: Partial<WizardState>) => setState((s) => ({ ...s, ...patch }));
  useEffect(() => sessionStorage.setItem(WIZARD_KEY, JSON.stringify(state)), [state]);

  const { data: resellers = [] } = useGetResellerInfoListQuery();
  const { data: sponsors = [] } = sponsorEndpoints().list!.useQuery();
  // The pickers offer only the answer to the current question (`currentData`): while another reseller's, slot count's
  // or provider's list is on its way, the last one's rows would be picked and refused.
  const { currentData: roaming } = useGetRoamingProfilesQuery({ resellerId: state.resellerId, slotCount: state.sponsorIds.length });
  const { data: providers = [] } = useGetSimProvidersQuery();
  // The reseller the order is for: the one picked, else the caller's own. Its own profiles and addresses only, as the
  // server takes them (a sub-reseller's would be refused).
  const ordering = state.resellerId ?? caller?.resellerId;
  const { currentData: profiles = [] } = useGetSimProvidersProfilesQuery(
    { simType: state.simType, slotCount: state.sponsorIds.length, status: 'approved', providerId: state.providerId, resellerId: ordering },
    { skip: !state.simType || !state.providerId },
  );
  const { data: efConfigs = [] } = useGetSimOrdersEfConfigQuery();
  const { data: addresses = [] } = addressEndpoints().list!.useQuery();
  const [submit, submitting] = usePostSimOrdersSubmitMutation();
  const [upload, uploading] = useUploadArtworkMutation();
  const physical = state.simType === 'physical';
  const price = usePostSimOrdersPriceQuery(
    {
      simType: state.simType!,
      simSize: state.simSize!,
      amount: state.amount,
      slots: state.sponsorIds.length,
      artwork: physical && !!state.artwork,
      currency: state.currency,
    },
    { skip: !state.simType || !state.simSize || stepProblem(state, STEPS.indexOf('amount')) !== undefined },
  );
  // The price of the order as it stands: the last amount's or currency's is not shown under the new ones.
  const quote = price.currentData;
  const roamingProfiles = roaming ?? [];
  const ownAddresses = useMemo(
    () => (addresses as { id: number; resellerId: number; city?: string; street?: string; companyName?: string }[]).filter((a) => a.resellerId === ordering),
    [addresses, ordering],
  );
  const problem = stepProblem(state, state.step);
  const current = STEPS[state.step];
  const money = (v: number) => intl.formatNumber(v, { style: 'currency', currency: state.currency });

  const next = () => {
    setTried(true);
    if (problem) return;
    setTried(false);
    // eSIMs have no artwork: its step is skipped.
    set({ step: Math.min(STEPS.length - 1, state.step + (STEPS[state.step + 1] === 'artwork' && !physical ? 2 : 1)) });
  };
  const back = () => set({ step: Math.max(0, state.step - (STEPS[state.step - 1] === 'artwork' && !physical ? 2 : 1)) });

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const check = checkArtwork(file.size, await file.arrayBuffer());
    if (check.tooLarge) {
      showToast({ intent: Intent.DANGER, message: intl.formatMessage({ id: 'order.artwork.tooLarge' }) });
      return;
    }
    try {
      const saved = await upload({ file, resellerId: state.resellerId }).unwrap();
      set({ artwork: { id: saved.id, fileName: saved.fileName, check } });
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.artwork.uploadError') });
    }
  };

  const onSubmit = async () => {
    try {
      const order = await submit({
        resellerId: state.resellerId,
        batchName: state.batchName.trim() || undefined,
        simType: state.simType!,
        simSize: state.simSize!,
        amount: state.amount,
        sponsorIds: state.sponsorIds as number[],
        roamingProfileId: state.roamingProfileId,
        customImsiFrom: state.customImsiFrom || undefined,
        customImsiTo: state.customImsiTo || undefined,
        providerId: state.providerId!,
        providerProfileId: state.profileMode === 'profile' ? state.providerProfileId : undefined,
        serviceProviderName: state.profileMode === 'name' ? state.serviceProviderName.trim() : undefined,
        efConfig: state.efConfig,
        deliveryEmail: state.deliveryMode === 'email' ? state.deliveryEmail : undefined,
        deliveryAddressId: state.deliveryMode === 'address' ? state.deliveryAddressId : undefined,
        artworkId: physical ? state.artwork?.id : undefined,
        currency: state.currency,
      }).unwrap();
      sessionStorage.removeItem(WIZARD_KEY);
      showToast({ intent: Intent.SUCCESS, message: intl.formatMessage({ id: 'orders.wizard.submitted' }) });
      navigate(`/orders/${order.uuid}`);
    } catch (e) {
      showToast({ intent: Intent.DANGER, message: apiErrorMessage(intl, e, 'orders.submitError') });
    }
  };

  const label = (id: string) => intl.formatMessage({ id });

  return (
    <Card className="portal-order-wizard" data-testid="order-wizard">
      <ol className="portal-order-steps">
        {STEPS.filter((s) => s !== 'artwork' || physical || !state.simType).map((s) => (
          <li key={s} className={s === current ? 'current' : STEPS.indexOf(s) < state.step ? 'done' : ''} aria-current={s === current ? 'step' : undefined}>
            <FormattedMessage id={`orders.wizard.step.${s}`} />
          </li>
        ))}
      </ol>

      {current === 'who' && (
        <Step title="who" intro="orders.wizard.who.intro">
          <FormGroup label={label('orders.wizard.reseller')} labelFor="order-reseller">
            <HTMLSelect
              id="order-reseller"
              data-testid="order-reseller"
              value={state.resellerId ?? ''}
              onChange={(e) =>
                set({
                  resellerId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined,
                  deliveryAddressId: undefined,
                  providerProfileId: undefined,
                  roamingProfileId: undefined,
                })
              }
            >
              <option value="">{label('orders.wizard.ownReseller')}</option>
              {resellers.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </Step>
      )}

      {current === 'simType' && (
        <Step title="simType" intro="orders.wizard.simType.intro">
          <RadioGroup
            name="simType"
            inline
            selectedValue={state.simType}
            onChange={(e) => {
              const simType = e.currentTarget.value as SimType;
              set({ simType, simSize: SIZES_OF[simType][0], providerProfileId: undefined });
            }}
          >
            <Radio value="physical" label={label('orders.simType.physical')} data-testid="sim-type-physical" />
            <Radio value="esim" label={label('orders.simType.esim')} data-testid="sim-type-esim" />
          </RadioGroup>
          {state.simType && (
            <FormGroup label={label('orders.wizard.simSize')} labelFor="order-size">
              <HTMLSelect id="order-size" value={state.simSize} onChange={(e) => set({ simSize: e.currentTarget.value as SimSize })}>
                {SIZES_OF[state.simType].map((size) => (
                  <option key={size} value={size}>
                    {label(`orders.simSize.${size}`)}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
        </Step>
      )}

      {current === 'sponsors' && (
        <Step title="sponsors" intro="orders.wizard.sponsors.intro">
          {state.sponsorIds.map((id, i) => (
            <FormGroup key={i} label={intl.formatMessage({ id: 'orders.wizard.slot' }, { slot: i + 1 })} labelFor={`order-sponsor-${i}`} inline>
              <HTMLSelect
                id={`order-sponsor-${i}`}
                data-testid={`order-sponsor-${i}`}
                value={id ?? ''}
                onChange={(e) =>
                  set({
                    sponsorIds: state.sponsorIds.map((v, j) => (j === i ? (e.currentTarget.value ? Number(e.currentTarget.value) : undefined) : v)),
                    providerProfileId: undefined,
                  })
                }
              >
                <option value="">{label('orders.wizard.choose')}</option>
                {(sponsors as { id: number; name: string; imsiPrefix: string }[]).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name} ({s.imsiPrefix})
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          ))}
          <div className="portal-order-row">
            <Button
              disabled={state.sponsorIds.length >= MAX_SLOTS}
              onClick={() => set({ sponsorIds: [...state.sponsorIds, undefined], providerProfileId: undefined, roamingProfileId: undefined })}
              text={label('orders.wizard.addSlot')}
            />
            <Button
              disabled={state.sponsorIds.length <= 1}
              onClick={() => set({ sponsorIds: state.sponsorIds.slice(0, -1), providerProfileId: undefined, roamingProfileId: undefined })}
              text={label('orders.wizard.removeSlot')}
            />
          </div>
        </Step>
      )}

      {current === 'roaming' && (
        <Step title="roaming" intro="orders.wizard.roaming.intro">
          <HTMLSelect
            aria-label={label('orders.wizard.step.roaming')}
            value={state.roamingProfileId ?? ''}
            onChange={(e) => set({ roamingProfileId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
          >
            <option value="">{label('orders.wizard.none')}</option>
            {roamingProfiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </HTMLSelect>
        </Step>
      )}

      {current === 'imsiRange' && (
        <Step title="imsiRange" intro="orders.wizard.imsiRange.intro">
          <div className="portal-order-row">
            <FormGroup label={label('orders.wizard.imsiFrom')} labelFor="order-imsi-from">
              <InputGroup
                id="order-imsi-from"
                inputMode="numeric"
                value={state.customImsiFrom}
                onChange={(e) => set({ customImsiFrom: e.currentTarget.value.trim() })}
              />
            </FormGroup>
            <FormGroup label={label('orders.wizard.imsiTo')} labelFor="order-imsi-to">
              <InputGroup
                id="order-imsi-to"
                inputMode="numeric"
                value={state.customImsiTo}
                onChange={(e) => set({ customImsiTo: e.currentTarget.value.trim() })}
              />
            </FormGroup>
          </div>
        </Step>
      )}

      {current === 'profile' && (
        <Step title="profile" intro="orders.wizard.profile.intro">
          <FormGroup label={label('orders.field.provider')} labelFor="order-provider">
            <HTMLSelect
              id="order-provider"
              data-testid="order-provider"
              value={state.providerId ?? ''}
              onChange={(e) => set({ providerId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined, providerProfileId: undefined })}
            >
              <option value="">{label('orders.wizard.choose')}</option>
              {providers
                .filter((p) => !state.simType || p.simTypes.includes(state.simType))
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
            </HTMLSelect>
          </FormGroup>
          <RadioGroup
            name="profileMode"
            inline
            selectedValue={state.profileMode}
            onChange={(e) => set({ profileMode: e.currentTarget.value as 'profile' | 'name' })}
          >
            <Radio value="profile" label={label('orders.wizard.useProfile')} />
            <Radio value="name" label={label('orders.wizard.useName')} data-testid="profile-mode-name" />
          </RadioGroup>
          {state.profileMode === 'profile' ? (
            <HTMLSelect
              aria-label={label('orders.field.profile')}
              data-testid="order-profile"
              value={state.providerProfileId ?? ''}
              onChange={(e) => set({ providerProfileId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
            >
              <option value="">{label('orders.wizard.choose')}</option>
              {profiles
                .filter((p) => p.sponsorId === state.sponsorIds[0])
                .map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({p.sponsorName}, {p.imsiPrefix})
                  </option>
                ))}
            </HTMLSelect>
          ) : (
            <InputGroup
              aria-label={label('orders.field.serviceProviderName')}
              data-testid="order-sp-name"
              maxLength={50}
              value={state.serviceProviderName}
              onChange={(e) => set({ serviceProviderName: e.currentTarget.value })}
            />
          )}
          <FormGroup label={label('orders.field.efConfig')} labelFor="order-ef" className="portal-order-ef">
            <HTMLSelect id="order-ef" value={state.efConfig ?? ''} onChange={(e) => set({ efConfig: e.currentTarget.value || undefined })}>
              <option value="">{label('orders.wizard.none')}</option>
              {efConfigs.map((c) => (
                <option key={c.id} value={c.id} title={c.description}>
                  {c.id}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
        </Step>
      )}

      {current === 'amount' && (
        <Step title="amount" intro="orders.wizard.amount.intro">
          <div className="portal-order-row">
            <FormGroup label={label('orders.field.amount')} labelFor="order-amount">
              <NumericInput
                id="order-amount"
                data-testid="order-amount"
                min={1}
                max={100000}
                value={state.amount}
                onValueChange={(v) => set({ amount: Number.isFinite(v) ? v : 0 })}
              />
            </FormGroup>
            <FormGroup label={label('orders.field.currency')} labelFor="order-currency">
              <HTMLSelect id="order-currency" value={state.currency} onChange={(e) => set({ currency: e.currentTarget.value as OrderCurrency })}>
                <option value="USD">USD</option>
                <option value="EUR">EUR</option>
              </HTMLSelect>
            </FormGroup>
            <FormGroup label={label('orders.field.batchName')} labelFor="order-batch">
              <InputGroup
                id="order-batch"
                data-testid="order-batch"
                maxLength={50}
                value={state.batchName}
                onChange={(e) => set({ batchName: e.currentTarget.value })}
              />
            </FormGroup>
          </div>
        </Step>
      )}

      {current === 'delivery' && (
        <Step title="delivery" intro="orders.wizard.delivery.intro">
          <RadioGroup
            name="deliveryMode"
            inline
            selectedValue={state.deliveryMode}
            onChange={(e) => set({ deliveryMode: e.currentTarget.value as 'email' | 'address' })}
          >
            <Radio value="email" label={label('orders.wizard.byEmail')} />
            <Radio value="address" label={label('orders.wizard.toAddress')} disabled={!ownAddresses.length} />
          </RadioGroup>
          {state.deliveryMode === 'email' ? (
            <InputGroup
              aria-label={label('orders.field.deliveryEmail')}
              data-testid="order-email"
              type="email"
              value={state.deliveryEmail}
              onChange={(e) => set({ deliveryEmail: e.currentTarget.value.trim() })}
            />
          ) : (
            <HTMLSelect
              aria-label={label('orders.field.deliveryAddress')}
              value={state.deliveryAddressId ?? ''}
              onChange={(e) => set({ deliveryAddressId: e.currentTarget.value ? Number(e.currentTarget.value) : undefined })}
            >
              <option value="">{label('orders.wizard.choose')}</option>
              {ownAddresses.map((a) => (
                <option key={a.id} value={a.id}>
                  {[a.companyName, a.street, a.city].filter(Boolean).join(', ')}
                </option>
              ))}
            </HTMLSelect>
          )}
        </Step>
      )}

      {current === 'artwork' && (
        <Step title="artwork" intro="orders.wizard.artwork.intro">
          <Callout intent={Intent.PRIMARY} className="portal-order-guidance">
            <FormattedMessage
              id="orders.wizard.artwork.guidance"
              values={{ max: intl.formatNumber(ARTWORK_MAX_BYTES / 1024 / 1024, { maximumFractionDigits: 1 }) }}
            />
          </Callout>
          <FileInput
            text={state.artwork?.fileName ?? label('orders.wizard.artwork.choose')}
            buttonText={label('orders.wizard.artwork.browse')}
            inputProps={{ accept: 'image/png,image/jpeg,application/pdf', 'aria-label': label('orders.wizard.artwork.choose') }}
            disabled={uploading.isLoading}
            onInputChange={(e) => void onFile((e.currentTarget as HTMLInputElement).files?.[0])}
          />
          {state.artwork && (
            <div className="portal-order-artwork" data-testid="artwork-check">
              {state.artwork.check.info && (
                <Tag minimal>
                  {state.artwork.check.info.widthPx} × {state.artwork.check.info.heightPx} px
                  {state.artwork.check.info.dpi ? `, ${state.artwork.check.info.dpi} DPI` : ''}
                  {state.artwork.check.widthMm ? ` ≈ ${state.artwork.check.widthMm} × ${state.artwork.check.heightMm} mm` : ''}
                </Tag>
              )}
              {state.artwork.check.warnings.map((w) => (
                <Callout key={w} intent={Intent.WARNING}>
                  <FormattedMessage id={`orders.wizard.artwork.warning.${w}`} />
                </Callout>
              ))}
              <Button variant="minimal" onClick={() => set({ artwork: undefined })} text={label('orders.wizard.artwork.remove')} />
            </div>
          )}
        </Step>
      )}

      {current === 'summary' && (
        <Step title="summary">
          <dl className="portal-order-summary" data-testid="order-summary">
            <dt>{label('orders.field.resellerName')}</dt>
            <dd data-testid="summary-reseller">
              {state.resellerId === undefined ? label('orders.wizard.ownReseller') : <bdi>{resellers.find((r) => r.id === state.resellerId)?.name}</bdi>}
            </dd>
            <dt>{label('orders.field.simType')}</dt>
            <dd>
              {label(`orders.simType.${state.simType}`)} · {label(`orders.simSize.${state.simSize}`)}
            </dd>
            <dt>{label('orders.field.sponsors')}</dt>
            <dd data-testid="summary-sponsors">
              <bdi>{state.sponsorIds.map((id) => (sponsors as { id: number; name: string }[]).find((s) => s.id === id)?.name).join(', ')}</bdi>
            </dd>
            <dt>{label('orders.field.roamingProfile')}</dt>
            <dd data-testid="summary-roaming">
              {state.roamingProfileId === undefined ? (
                label('orders.wizard.none')
              ) : (
                <bdi>{roamingProfiles.find((p) => p.id === state.roamingProfileId)?.name}</bdi>
              )}
            </dd>
            <dt>{label('orders.wizard.step.imsiRange')}</dt>
            <dd data-testid="summary-imsi-range">
              {state.customImsiFrom && state.customImsiTo ? (
                <bdi dir="ltr">{`${state.customImsiFrom} – ${state.customImsiTo}`}</bdi>
              ) : (
                label('orders.wizard.none')
              )}
            </dd>
            <dt>{label('orders.field.provider')}</dt>
            <dd data-testid="summary-provider">
              <bdi>{providers.find((p) => p.id === state.providerId)?.name}</bdi>
            </dd>
            {state.profileMode === 'profile' ? (
              <>
                <dt>{label('orders.field.profile')}</dt>
                <dd data-testid="summary-profile">
                  <bdi>{profiles.find((p) => p.id === state.providerProfileId)?.name}</bdi>
                </dd>
              </>
            ) : (
              <>
                <dt>{label('orders.field.serviceProviderName')}</dt>
                <dd data-testid="summary-profile">
                  <bdi>{state.serviceProviderName.trim()}</bdi>
                </dd>
              </>
            )}
            <dt>{label('orders.field.efConfig')}</dt>
            <dd>{state.efConfig ?? label('orders.wizard.none')}</dd>
            <dt>{label('orders.field.amount')}</dt>
            <dd data-testid="summary-amount">
              {intl.formatNumber(state.amount)} · {state.currency}
            </dd>
            <dt>{label('orders.field.batchName')}</dt>
            <dd data-testid="summary-batch">{state.batchName.trim() ? <bdi>{state.batchName.trim()}</bdi> : label('orders.wizard.summary.batchDefault')}</dd>
            <dt>{label(state.deliveryMode === 'email' ? 'orders.field.deliveryEmail' : 'orders.field.deliveryAddress')}</dt>
            <dd data-testid="summary-delivery">
              <bdi>
                {state.deliveryMode === 'email'
                  ? state.deliveryEmail
                  : (() => {
                      const a = ownAddresses.find((x) => x.id === state.deliveryAddressId);
                      return a ? [a.companyName, a.street, a.city].filter(Boolean).join(', ') : '';
                    })()}
              </bdi>
            </dd>
            {physical && (
              <>
                <dt>{label('orders.wizard.step.artwork')}</dt>
                <dd data-testid="summary-artwork">{state.artwork ? <bdi>{state.artwork.fileName}</bdi> : label('orders.wizard.none')}</dd>
              </>
            )}
            {quote && (
              <>
                <dt>{label('orders.price.unitPrice')}</dt>
                <dd>{money(quote.unitPrice)}</dd>
                <dt>{label('orders.price.totalUnitPrice')}</dt>
                <dd>{money(quote.totalUnitPrice)}</dd>
                <dt>{label('orders.price.additionalSlotCharge')}</dt>
                <dd>{money(quote.additionalSlotCharge)}</dd>
                <dt>{label('orders.price.artworkCharge')}</dt>
                <dd>{money(quote.artworkCharge)}</dd>
                <dt>
                  <FormattedMessage id="orders.price.feeBelowMoq" values={{ moq: <bdi>{intl.formatNumber(quote.moq)}</bdi> }} />
                </dt>
                <dd>{money(quote.feeBelowMoq)}</dd>
                <dt>{label('orders.price.discount')}</dt>
                <dd>
                  {money(quote.discount.value ? -quote.discount.value : 0)} (
                  {intl.formatNumber(quote.discount.rate / 100, { style: 'percent', minimumFractionDigits: 2 })})
                </dd>
                <dt>{label('orders.price.total')}</dt>
                <dd data-testid="order-total">
                  <strong>{money(quote.total)}</strong>
                </dd>
              </>
            )}
          </dl>
          <p className="portal-page-intro">
            <FormattedMessage id="orders.wizard.summary.hold" />
          </p>
        </Step>
      )}

      {tried && problem && (
        <Callout intent={Intent.DANGER} role="alert" data-testid="wizard-problem">
          <FormattedMessage id={problem} />
        </Callout>
      )}
      <div className="portal-order-nav">
        <Button
          icon={<ArrowLeftIcon className="portal-flip-rtl" />}
          disabled={state.step === 0}
          onClick={back}
          text={label('orders.wizard.back')}
          data-testid="wizard-back"
        />
        <Button variant="minimal" onClick={() => setState(INITIAL)} text={label('orders.wizard.reset')} />
        {current === 'summary' ? (
          <Button
            intent={Intent.PRIMARY}
            icon={<TickIcon />}
            loading={submitting.isLoading}
            onClick={onSubmit}
            text={label('orders.wizard.submit')}
            data-testid="wizard-submit"
          />
        ) : (
          <Button
            intent={Intent.PRIMARY}
            endIcon={<ArrowRightIcon className="portal-flip-rtl" />}
            onClick={next}
            text={label('orders.wizard.next')}
            data-testid="wizard-next"
          />
        )}
      </div>
    </Card>
  );
}
