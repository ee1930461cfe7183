/**
 * One bulk action on the list's selection: its parameters, then the server's preview (how many subscribers will
 * change, and which will not, with the reason) before anything happens, then the job that applies it.
 */
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, HTMLTable, InputGroup, Intent } from '@blueprintjs/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { assignablePlans, planOptions, useGetPricingPlansQuery } from '@web/core/pricingPlansApi';
import { useReferenceOptionsQuery } from '@web/engine/referenceOptions';
import type { ListSelection } from '@web/engine/EntityListPage';
import { dailyLimitProblem } from '../dialogs';
import { errorText } from '../operations';
import { QOS_BLOCK, useGetResellerInfoApiQosSpeedLimitsQuery } from '../subscriberApi';
import { bulkSelection, usePostSubscribersBulkPreviewMutation, useGetRoamingProfilesQuery, usePostSubscribersBulkMutation, type BulkAction } from './bulkApi';
import { messageOr } from '@web/core/messages';

const UNITS = { MB: 1024 ** 2, GB: 1024 ** 3 } as const;
type Unit = keyof typeof UNITS;

/** The values the dialog's fields hold, as typed. */
interface Fields {
  amount: string;
  unit: Unit;
  qos: string;
  choice: string;
  groupName: string;
}
const START: Fields = { amount: '', unit: 'MB', qos: QOS_BLOCK, choice: '', groupName: '' };

/** The action's parameters from the fields, or the message id of the first field that is wrong. */
function paramsOf(action: BulkAction, f: Fields): { params: Record<string, unknown> } | { problem: string } {
  switch (action) {
    case 'suspend':
    case 'reactivate':
      return { params: {} };
    case 'daily-limit': {
      const problem = dailyLimitProblem(f.amount);
      if (problem) return { problem };
      const bytes = Math.max(1, Math.round(Number(f.amount.trim().replace(',', '.')) * UNITS[f.unit]));
      return { params: { dailyLimitBytes: bytes, qosThrottling: f.qos } };
    }
    case 'qos':
      return { params: { qosThrottling: f.qos } };
    case 'group-name':
      return f.groupName.length > 50 ? { problem: 'validation.max50' } : { params: { groupName: f.groupName.trim() } };
    case 'pricing-plan':
      return f.choice ? { params: { pricingPlanId: Number(f.choice) } } : { problem: 'validation.pricingPlan.required' };
    case 'roaming-profile':
      return f.choice ? { params: { roamingProfileId: Number(f.choice) } } : { problem: 'validation.roamingProfile.required' };
    case 'move':
      return f.choice ? { params: { accountId: Number(f.choice) } } : { problem: 'validation.move.account' };
  }
}

/** The choices of the action that picks one row of a list: plans, roaming profiles or accounts. */
function useChoices(action: BulkAction) {
  const plans = useGetPricingPlansQuery(undefined, { skip: action !== 'pricing-plan' });
  const profiles = useGetRoamingProfilesQuery({}, { skip: action !== 'roaming-profile' });
  const accounts = useReferenceOptionsQuery(['account'], { skip: action !== 'move' });
  if (action === 'pricing-plan')
    return plans.data ? assignablePlans(planOptions(plans.data, 'pricingPlan')).map((p) => ({ value: String(p.value), label: p.label })) : [];
  if (action === 'roaming-profile') return (profiles.data ?? []).map((p) => ({ value: String(p.id), label: `${p.name} (${p.resellerName})` }));
  if (action === 'move') return (accounts.data?.account ?? []).map((a) => ({ value: String(a.value), label: a.label }));
  return [];
}

export function BulkDialog({
  action,
  selection,
  onClose,
  onStarted,
}: {
  action: BulkAction;
  selection: ListSelection;
  onClose: () => void;
  onStarted: (jobId: number) => void;
}) {
  const intl = useIntl();
  const [fields, setFields] = useState<Fields>(START);
  const [problem, setProblem] = useState<string>();
  const [preview, previewState] = usePostSubscribersBulkPreviewMutation();
  const [start, startState] = usePostSubscribersBulkMutation();
  const speeds = useGetResellerInfoApiQosSpeedLimitsQuery(undefined, { skip: action !== 'daily-limit' && action !== 'qos' });
  const choices = useChoices(action);
  const checked = previewState.data;
  const selectionBody = bulkSelection(selection.target);
  const noFields = action === 'suspend' || action === 'reactivate';
  const text = (id: string, fallback: string) => messageOr(intl, id, fallback);

  const check = () => {
    const built = paramsOf(action, fields);
    if ('problem' in built) return setProblem(built.problem);
    setProblem(undefined);
    void preview({ action, params: built.params, selection: selectionBody });
  };
  // Nothing to choose: the preview comes at once, once.
  const asked = useRef(false);
  useEffect(() => {
    if (!noFields || asked.current) return;
    asked.current = true;
    check();
  });

  const change = (next: Partial<Fields>) => {
    setFields({ ...fields, ...next });
    previewState.reset();
  };

  const apply = async () => {
    const built = paramsOf(action, fields);
    if ('problem' in built) return;
    const answer = await start({ action, params: built.params, selection: selectionBody });
    if ('data' in answer && answer.data) {
      selection.clear();
      onStarted(answer.data.jobId);
      onClose();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (checked) void apply();
    else check();
  };

  const qosSelect = (id: string, label: string) => (
    <FormGroup label={label} labelFor={id}>
      <HTMLSelect id={id} fill value={fields.qos} onChange={(e) => change({ qos: e.currentTarget.value })} data-testid="bulk-qos">
        <option value={QOS_BLOCK}>{intl.formatMessage({ id: 'subscriber.dailyLimit.block' })}</option>
        {(speeds.data ?? []).map((s) => (
          <option key={s.id} value={s.id}>
            {intl.formatMessage({ id: 'subscriber.qos.throttle' }, { speed: s.name })}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
  const error = previewState.error ?? startState.error;
  const title = intl.formatMessage({ id: `bulk.action.${action}` });

  return (
    <Dialog isOpen onClose={onClose} title={title} style={{ width: 560 }}>
      <form onSubmit={submit} noValidate data-testid="bulk-dialog">
        <DialogBody>
          <p data-testid="bulk-selection">
            {'ids' in selection.target ? (
              <FormattedMessage id="bulk.selection.ids" values={{ count: selection.count }} />
            ) : (
              <FormattedMessage id="bulk.selection.search" values={{ count: selection.count }} />
            )}
          </p>
          {action === 'daily-limit' && (
            <>
              <FormGroup
                label={intl.formatMessage({ id: 'subscriber.dailyLimit.amount' })}
                labelFor="bulk-amount"
                labelInfo={intl.formatMessage({ id: 'form.required' })}
              >
                <div className="portal-bulk-inline">
                  <InputGroup
                    id="bulk-amount"
                    inputMode="decimal"
                    value={fields.amount}
                    onValueChange={(amount) => change({ amount })}
                    data-testid="bulk-amount"
                  />
                  <HTMLSelect
                    aria-label={intl.formatMessage({ id: 'subscriber.dailyLimit.unit' })}
                    value={fields.unit}
                    onChange={(e) => change({ unit: e.currentTarget.value as Unit })}
                    options={Object.keys(UNITS)}
                    data-testid="bulk-unit"
                  />
                </div>
              </FormGroup>
              {qosSelect('bulk-qos', intl.formatMessage({ id: 'subscriber.dailyLimit.whenReached' }))}
            </>
          )}
          {action === 'qos' && qosSelect('bulk-qos', intl.formatMessage({ id: 'entity.subscriber.field.qosThrottling' }))}
          {(action === 'pricing-plan' || action === 'roaming-profile' || action === 'move') && (
            <FormGroup
              label={intl.formatMessage({ id: `bulk.choice.${action}` })}
              labelFor="bulk-choice"
              labelInfo={intl.formatMessage({ id: 'form.required' })}
            >
              <HTMLSelect id="bulk-choice" fill value={fields.choice} onChange={(e) => change({ choice: e.currentTarget.value })} data-testid="bulk-choice">
                <option value="">{intl.formatMessage({ id: 'form.select.placeholder' })}</option>
                {choices.map((c) => (
                  <option key={c.value} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
          )}
          {action === 'group-name' && (
            <FormGroup
              label={intl.formatMessage({ id: 'entity.subscriber.field.groupName' })}
              labelFor="bulk-group"
              helperText={intl.formatMessage({ id: 'bulk.groupName.hint' })}
            >
              <InputGroup
                id="bulk-group"
                value={fields.groupName}
                maxLength={50}
                onValueChange={(groupName) => change({ groupName })}
                data-testid="bulk-group"
              />
            </FormGroup>
          )}
          {problem && (
            <Callout intent={Intent.DANGER} role="alert" data-testid="bulk-problem">
              {intl.formatMessage({ id: problem })}
            </Callout>
          )}
          {error && (
            <Callout intent={Intent.DANGER} role="alert" data-testid="bulk-error">
              {errorText(intl, error)}
            </Callout>
          )}
          {checked && (
            <div data-testid="bulk-preview">
              <Callout intent={checked.willChange > 0 ? Intent.PRIMARY : Intent.WARNING} data-testid="bulk-will-change">
                <FormattedMessage id="bulk.preview.willChange" values={{ count: checked.willChange, total: checked.total }} />
                {(action === 'suspend' || action === 'reactivate') && checked.willChange > 0 && (
                  <div className={Classes.TEXT_MUTED}>
                    <FormattedMessage id="bulk.preview.network" />
                  </div>
                )}
              </Callout>
              {checked.reasons.length > 0 && (
                // One row per distinct reason with its count, a short summary inside the dialog: not a list of records.
                <HTMLTable compact striped className="portal-bulk-reasons" data-testid="bulk-reasons">
                  <thead>
                    <tr>
                      <th>
                        <FormattedMessage id="bulk.preview.reason" />
                      </th>
                      <th>
                        <FormattedMessage id="bulk.preview.count" />
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {checked.reasons.map((r) => (
                      <tr key={r.messageId} data-reason={r.messageId}>
                        <td>{text(r.messageId, r.message)}</td>
                        <td>{intl.formatNumber(r.count)}</td>
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              )}
              {checked.rows.length > 0 && (
                <details className="portal-bulk-rows">
                  <summary>
                    <FormattedMessage id="bulk.preview.rows" values={{ count: checked.rows.length }} />
                  </summary>
                  <ul data-testid="bulk-rows">
                    {checked.rows.map((r) => (
                      <li key={r.subscriberId}>
                        <bdi>{r.subscriberId}</bdi>: {text(r.messageId, r.message)}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </div>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>{intl.formatMessage({ id: 'form.cancel' })}</Button>
              {checked ? (
                <Button type="submit" intent={Intent.PRIMARY} loading={startState.isLoading} disabled={checked.willChange === 0} data-testid="bulk-apply">
                  <FormattedMessage id="bulk.apply" values={{ count: checked.willChange }} />
                </Button>
              ) : (
                <Button type="submit" intent={Intent.PRIMARY} loading={previewState.isLoading} data-testid="bulk-check">
                  <FormattedMessage id="bulk.check" />
                </Button>
              )}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
