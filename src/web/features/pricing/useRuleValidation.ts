/**
 * Checks one rule row as the server will: the rule schema's precompiled validator with its messages, a real
 * country, the end after the start and, for roaming rules, an MCC and MNC the network catalogue knows.
 */
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import { isCountryCode } from '@shared/countries';
import { createErrorTransformer } from '@web/engine/form/errors';
import { formSchemaOf } from '@web/engine/form/formSchema';
import { formValidatorOf } from '@web/engine/form/validator';
import type { EntityRow } from '@web/core/types';
import type { RuleKind } from './ruleKinds';
import type { Network } from './rulesApi';

export function useRuleValidation(kind: RuleKind, networks: Network[] | undefined) {
  const intl = useIntl();
  const formSchema = formSchemaOf(kind.schema, 'edit');
  const validator = formValidatorOf(formSchema);
  const transform = useMemo(() => createErrorTransformer(formSchema, intl), [formSchema, intl]);
  const plmns = useMemo(() => (networks ? new Set(networks.map((n) => n.plmn)) : undefined), [networks]);

  return useCallback(
    (row: EntityRow): Record<string, string> => {
      const data = Object.fromEntries(Object.entries(row).filter(([k, v]) => v !== null && v !== undefined && !k.startsWith('__')));
      const errors: Record<string, string> = {};
      for (const e of validator.validateFormData(data, formSchema, undefined, transform).errors) {
        const field = (e.property ?? '').replace(/^\./, '').split('.')[0];
        if (field && !errors[field]) errors[field] = e.message ?? '';
      }
      const { country, startDate, endDate, mcc, mnc } = data as Record<string, string | undefined>;
      if (!errors.country && country && !isCountryCode(country)) errors.country = intl.formatMessage({ id: 'validation.country.invalid' });
      if (!errors.startDate && !errors.endDate && startDate && endDate && Date.parse(endDate) <= Date.parse(startDate)) {
        errors.endDate = intl.formatMessage({ id: 'validation.endDate.afterStart' });
      }
      if (plmns && kind.schema.properties.mnc && !errors.mcc && !errors.mnc && mcc && mnc && !plmns.has(`${mcc}${mnc}`)) {
        errors.mnc = intl.formatMessage({ id: 'validation.network.unknown' });
      }
      return errors;
    },
    [validator, formSchema, transform, plmns, kind, intl],
  );
}
