/**
 * Assigns a range of SIM cards from the caller's inventory to an account: a subscriber for every card, all in
 * one go. Choosing a range fills the first ICCID still in stock; the quantity then fills the last ICCID (until
 * the user types one). The server checks that the end is after the start and that the quantity is the number of
 * cards in the range.
 */
import { Button, Callout, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { BoxIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router-dom';
import { isValidIccid } from '@shared/iccid';
import { MAX_ASSIGN_RANGE } from '@shared/inventory';
import { apiErrorOf } from '@web/core/apiErrors';
import { useGetInventoryRangesQuery, usePostInventoryAssignMutation } from '@web/core/inventoryApi';
import { useReferenceOptionsQuery } from '@web/engine/referenceOptions';
import { chainOf } from '@web/core/resellerTree';
import { LabelledInput } from '@web/ui/LabelledInput';
import { Choice, serverFieldText } from './RangeFields';
import { iccidAfter } from './iccidRange';

type Field = 'iccidStart' | 'iccidEnd' | 'quantity';

export function InventoryAssignForm() {
  const intl = useIntl();
  const ranges = useGetInventoryRangesQuery(undefined);
  const accounts = useReferenceOptionsQuery(['account', 'reseller']);
  const [assign, state] = usePostInventoryAssignMutation();
  const [accountId, setAccountId] = useState('');
  const [batchId, setBatchId] = useState('');
  const [values, setValues] = useState<Record<Field, string>>({ iccidStart: '', iccidEnd: '', quantity: '' });
  const [endTyped, setEndTyped] = useState(false);
  const [tried, setTried] = useState(false);
  // A card goes to an account of its owner or of a reseller below it: with an account chosen, only the ranges of its
  // reseller and of those above it are offered, as the server takes no other.
  const account = accounts.data?.account?.find((a) => String(a.value) === accountId);
  const owners = account?.resellerId === undefined ? undefined : chainOf(accounts.data?.reseller ?? [], account.resellerId);
  const open = (ranges.data?.ranges ?? []).filter((r) => r.available > 0 && (!owners || owners.has(r.resellerId)));
  // A range picked for another account that the chosen one may not take is not shown as picked.
  const shownBatch = open.some((r) => String(r.batchId) === batchId) ? batchId : '';
  const options = accounts.isError ? undefined : (accounts.data?.account ?? []).map((o) => ({ value: Number(o.value), label: o.label }));

  const set = (field: Field, value: string) =>
    setValues((was) => {
      const next = { ...was, [field]: value.trim() };
      if (field === 'iccidEnd') return next;
      const end = endTyped ? undefined : iccidAfter(next.iccidStart, Number(next.quantity));
      return end ? { ...next, iccidEnd: end } : next;
    });
  const chooseRange = (id: string) => {
    setBatchId(id);
    const range = open.find((r) => String(r.batchId) === id);
    if (range?.firstAvailable) set('iccidStart', range.firstAvailable);
  };

  const problems: Partial<Record<Field | 'accountId', string>> = {};
  if (!/^\d{1,10}$/.test(accountId)) problems.accountId = 'assign.account.required';
  if (!isValidIccid(values.iccidStart)) problems.iccidStart = 'validation.iccid.invalid';
  if (!isValidIccid(values.iccidEnd)) problems.iccidEnd = 'validation.iccid.invalid';
  else if (!problems.iccidStart && (values.iccidEnd.length !== values.iccidStart.length || BigInt(values.iccidEnd) <= BigInt(values.iccidStart)))
    problems.iccidEnd = 'inventory.assign.endAfterStart';
  const quantity = Number(values.quantity);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > MAX_ASSIGN_RANGE) problems.quantity = 'inventory.assign.quantityMismatch';
  const message = (field: Field | 'accountId') =>
    tried && problems[field] ? intl.formatMessage({ id: problems[field] }) : serverFieldText(intl, state.error, field);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problems).length) return;
    void assign({ accountId: Number(accountId), iccidStart: values.iccidStart, iccidEnd: values.iccidEnd, quantity });
  };
  const server = apiErrorOf(state.error);
  const unnamed = server && !server.fields?.some((f) => ['accountId', 'iccidStart', 'iccidEnd', 'quantity'].includes(f.field));
  const done = state.isSuccess ? state.data : undefined;
  return (
    <form className="portal-assign-form" onSubmit={submit} noValidate data-testid="assign-inventory">
      <p>
        <FormattedMessage id="assign.inventory.intro" />
      </p>
      <Choice
        id="inventory-account"
        label={intl.formatMessage({ id: 'assign.account' })}
        value={accountId}
        onChange={setAccountId}
        options={options}
        error={message('accountId')}
        required
        testId="inventory-account"
      />
      <FormGroup label={intl.formatMessage({ id: 'assign.inventory.range' })} labelFor="inventory-range">
        <HTMLSelect id="inventory-range" fill value={shownBatch} onChange={(e) => chooseRange(e.currentTarget.value)} data-testid="inventory-range">
          <option value="">{intl.formatMessage({ id: 'assign.inventory.rangeAny' })}</option>
          {open.map((r) => (
            <option key={r.batchId} value={r.batchId}>
              {intl.formatMessage({ id: 'assign.inventory.rangeOption' }, { name: r.name, available: r.available, total: r.total })}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <div className="portal-assign-range">
        <LabelledInput
          id="inventory-iccidStart"
          label={intl.formatMessage({ id: 'assign.inventory.iccidStart' })}
          value={values.iccidStart}
          onChange={(e) => set('iccidStart', e.currentTarget.value)}
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          error={message('iccidStart')}
          data-testid="inventory-iccidStart"
        />
        <LabelledInput
          id="inventory-iccidEnd"
          label={intl.formatMessage({ id: 'assign.inventory.iccidEnd' })}
          value={values.iccidEnd}
          onChange={(e) => {
            setEndTyped(true);
            set('iccidEnd', e.currentTarget.value);
          }}
          inputMode="numeric"
          autoComplete="off"
          dir="ltr"
          error={message('iccidEnd')}
          data-testid="inventory-iccidEnd"
        />
        <LabelledInput
          id="inventory-quantity"
          label={intl.formatMessage({ id: 'assign.quantity' })}
          value={values.quantity}
          onChange={(e) => set('quantity', e.currentTarget.value)}
          inputMode="numeric"
          dir="ltr"
          error={message('quantity')}
          hint={intl.formatMessage({ id: 'assign.inventory.quantityHint' }, { max: MAX_ASSIGN_RANGE })}
          data-testid="inventory-quantity"
        />
      </div>
      <Button type="submit" intent={Intent.PRIMARY} icon={<BoxIcon />} loading={state.isLoading} data-testid="inventory-submit">
        <FormattedMessage id="assign.inventory.submit" />
      </Button>
      {unnamed && (
        <Callout intent={Intent.DANGER} className="portal-assign-callout" role="alert">
          <FormattedMessage id="assign.inventory.error" />
        </Callout>
      )}
      {done && (
        <Callout intent={Intent.SUCCESS} className="portal-assign-callout" role="status" data-testid="inventory-done">
          <FormattedMessage id="assign.inventory.done" values={{ count: done.assigned }} />{' '}
          <Link to={`/subscribers?searchBy=accountId&searchKey=${done.accountId}&page=1`} data-testid="inventory-show">
            <FormattedMessage id="assign.move.show" />
          </Link>
        </Callout>
      )}
    </form>
  );
}
