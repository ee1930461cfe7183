/** The administrator adds a batch of SIM cards to a reseller's inventory; without a first ICCID the provider's next free range is taken. */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Intent } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { isValidIccid } from '@shared/iccid';
import { apiErrorOf } from '@web/core/apiErrors';
import { usePostInventoryBatchesSimCardsMutation } from '@web/core/inventoryApi';
import { messageOr } from '@web/core/messages';
import { useReferenceOptionsQuery } from '@web/engine/referenceOptions';
import { LabelledInput } from '@web/ui/LabelledInput';

type Field = 'name' | 'quantity' | 'iccidStart' | 'profileType' | 'cost' | 'serviceProviderName';

export function AddBatchDialog({ onClose }: { onClose: () => void }) {
  const intl = useIntl();
  const resellers = useReferenceOptionsQuery(['reseller']);
  const [resellerId, setResellerId] = useState('');
  const [simType, setSimType] = useState<'physical' | 'esim'>('physical');
  const [values, setValues] = useState<Record<Field, string>>({ name: '', quantity: '', iccidStart: '', profileType: '', cost: '', serviceProviderName: '' });
  const [tried, setTried] = useState(false);
  const [add, state] = usePostInventoryBatchesSimCardsMutation();

  const problems: Partial<Record<Field | 'resellerId', string>> = {};
  if (!resellerId) problems.resellerId = 'validation.select.required';
  if (!values.name.trim()) problems.name = 'validation.required';
  const quantity = Number(values.quantity);
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > 200_000) problems.quantity = 'inventory.quantityRange';
  if (values.iccidStart && !(values.iccidStart.length === 19 && isValidIccid(values.iccidStart))) problems.iccidStart = 'inventory.iccidFormat';
  if (values.cost && !/^\d{1,8}(\.\d{1,2})?$/.test(values.cost)) problems.cost = 'validation.amount.invalid';
  const server = apiErrorOf(state.error);
  const errorOf = (field: Field | 'resellerId') => {
    if (tried && problems[field]) return intl.formatMessage({ id: problems[field] });
    const f = server?.fields?.find((e) => e.field === field);
    return f ? messageOr(intl, f.messageId, f.message) : undefined;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(problems).length) return;
    const result = await add({
      resellerId: Number(resellerId),
      name: values.name.trim(),
      quantity,
      simType,
      iccidStart: values.iccidStart || null,
      profileType: values.profileType.trim() || null,
      cost: values.cost ? Number(values.cost) : null,
      serviceProviderName: values.serviceProviderName.trim() || null,
    });
    if (!result.error) onClose();
  };
  const input = (field: Field, extra: Record<string, unknown> = {}) => (
    <LabelledInput
      id={`batch-${field}`}
      label={intl.formatMessage({ id: `inventory.batch.${field}` })}
      value={values[field]}
      onChange={(e) => {
        const v = e.currentTarget.value;
        setValues((was) => ({ ...was, [field]: v }));
      }}
      error={errorOf(field)}
      data-testid={`batch-${field}`}
      {...extra}
    />
  );
  return (
    <Dialog isOpen onClose={onClose} title={intl.formatMessage({ id: 'inventory.batch.add' })}>
      <form onSubmit={submit} noValidate>
        <DialogBody data-testid="add-batch-dialog">
          <FormGroup
            label={intl.formatMessage({ id: 'inventory.range.reseller' })}
            labelFor="batch-reseller"
            intent={errorOf('resellerId') ? Intent.DANGER : Intent.NONE}
            helperText={errorOf('resellerId')}
          >
            <HTMLSelect id="batch-reseller" fill value={resellerId} onChange={(e) => setResellerId(e.currentTarget.value)} data-testid="batch-reseller">
              <option value="">{intl.formatMessage({ id: 'validation.select.required' })}</option>
              {(resellers.data?.reseller ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {input('name')}
          <FormGroup label={intl.formatMessage({ id: 'subscriber.sim.simType' })} labelFor="batch-simType">
            <HTMLSelect
              id="batch-simType"
              fill
              value={simType}
              onChange={(e) => setSimType(e.currentTarget.value as 'physical' | 'esim')}
              data-testid="batch-simType"
            >
              <option value="physical">{intl.formatMessage({ id: 'enum.physical' })}</option>
              <option value="esim">{intl.formatMessage({ id: 'enum.esim' })}</option>
            </HTMLSelect>
          </FormGroup>
          {input('quantity', { inputMode: 'numeric', dir: 'ltr' })}
          {input('iccidStart', { inputMode: 'numeric', dir: 'ltr', hint: intl.formatMessage({ id: 'inventory.batch.iccidStartHint' }) })}
          {input('profileType')}
          {input('cost', { inputMode: 'decimal', dir: 'ltr' })}
          {input('serviceProviderName')}
          {server && !server.fields?.length && <Callout intent={Intent.DANGER}>{intl.formatMessage({ id: 'inventory.error.generic' })}</Callout>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button onClick={onClose}>
                <FormattedMessage id="subscriber.close" />
              </Button>
              <Button type="submit" intent={Intent.PRIMARY} loading={state.isLoading} data-testid="batch-submit">
                <FormattedMessage id="inventory.batch.submit" />
              </Button>
            </>
          }
        />
      </form>
    </Dialog>
  );
}
