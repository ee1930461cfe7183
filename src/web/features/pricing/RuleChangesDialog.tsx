/**
 * Asks before rules are replaced, showing what would change: how many rules are added, changed, removed and kept,
 * then the first of each one by one (a changed rule with each value as it is and as it would be).
 */
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, H5, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { formatRate } from '@shared/pricing';
import type { RuleChanges } from '@shared/ruleChanges';
import type { EntitySchema } from '@shared/schema';
import { formatCell } from '@web/engine/columns';
import { cellKind } from '@web/engine/cellKinds';
import { countryOptions } from '@web/engine/form/widgets/CountryWidget/countryNames';

type Row = Record<string, unknown>;

export interface RuleChangesDialogProps {
  isOpen: boolean;
  changes: RuleChanges;
  schema: EntitySchema;
  /** How many rules applying writes, for the button. */
  count: number;
  applying: boolean;
  onCancel: () => void;
  onApply: () => void;
}

function countryName(intl: IntlShape, code: unknown): string {
  return countryOptions(intl.locale).find((c) => c.value === code)?.label ?? String(code ?? '');
}

/** One value of a rule as the grid shows it: rates in the rule's currency, dates and yes/no in the user's language. */
function valueText(intl: IntlShape, schema: EntitySchema, rule: Row, field: string): string {
  const value = rule[field];
  if (value === undefined || value === null || value === '') return intl.formatMessage({ id: 'format.none' });
  const prop = schema.properties[field];
  if (field === 'country') return countryName(intl, value);
  if (prop?.['x-format'] === 'rate' && typeof value === 'number') return formatRate(intl.locale, value, String(rule.currency ?? ''));
  return formatCell(intl, cellKind(prop), value);
}

function ruleLabel(intl: IntlShape, schema: EntitySchema, rule: Row): string {
  const network = [rule.network, rule.plmn ?? `${rule.mcc ?? ''}${rule.mnc ?? ''}`].filter(Boolean).join(' ');
  return intl.formatMessage(
    { id: 'ruleChanges.rule' },
    { country: countryName(intl, rule.country), network, start: valueText(intl, schema, rule, 'startDate') },
  );
}

/** One kind of change: its count, then its first rules one by one and how many more there are. */
function ChangeSection({ kind, count, shown, children }: { kind: 'added' | 'changed' | 'removed'; count: number; shown: number; children: ReactNode }) {
  if (count === 0) return null;
  return (
    <section data-testid={`rule-changes-${kind}`}>
      <H5>
        <FormattedMessage id={`ruleChanges.${kind}`} values={{ count }} />
      </H5>
      <ul>
        {children}
        {count > shown && (
          <li className={Classes.TEXT_MUTED}>
            <FormattedMessage id="ruleChanges.more" values={{ count: count - shown }} />
          </li>
        )}
      </ul>
    </section>
  );
}

export function RuleChangesDialog({ isOpen, changes, schema, count, applying, onCancel, onApply }: RuleChangesDialogProps) {
  const intl = useIntl();
  const { samples } = changes;
  const title = (field: string) => {
    const id = schema.properties[field]?.title;
    return id ? intl.formatMessage({ id }) : field;
  };
  const nothing = changes.added + changes.changed + changes.removed === 0;
  return (
    <Dialog isOpen={isOpen} onClose={onCancel} title={intl.formatMessage({ id: 'ruleChanges.title' })} className="portal-rule-changes">
      <DialogBody>
        <Callout intent={changes.removed > 0 ? Intent.WARNING : Intent.PRIMARY} data-testid="rule-changes-summary">
          {nothing ? (
            <FormattedMessage id="ruleChanges.none" values={{ unchanged: changes.unchanged }} />
          ) : (
            <FormattedMessage
              id="ruleChanges.summary"
              values={{ added: changes.added, changed: changes.changed, removed: changes.removed, unchanged: changes.unchanged }}
            />
          )}
        </Callout>
        <ChangeSection kind="added" count={changes.added} shown={samples.added.length}>
          {samples.added.map((rule, i) => (
            <li key={i}>{ruleLabel(intl, schema, rule)}</li>
          ))}
        </ChangeSection>
        <ChangeSection kind="changed" count={changes.changed} shown={samples.changed.length}>
          {samples.changed.map(({ before, after, fields }, i) => (
            <li key={i}>
              {ruleLabel(intl, schema, before)}
              <ul>
                {fields.map((field) => (
                  <li key={field} data-field={field}>
                    <FormattedMessage
                      id="ruleChanges.value"
                      values={{ field: title(field), before: valueText(intl, schema, before, field), after: valueText(intl, schema, after, field) }}
                    />
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ChangeSection>
        <ChangeSection kind="removed" count={changes.removed} shown={samples.removed.length}>
          {samples.removed.map((rule, i) => (
            <li key={i}>{ruleLabel(intl, schema, rule)}</li>
          ))}
        </ChangeSection>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onCancel} data-testid="rule-changes-cancel">
              <FormattedMessage id="form.cancel" />
            </Button>
            <Button intent={Intent.PRIMARY} onClick={onApply} loading={applying} data-testid="rule-changes-apply">
              <FormattedMessage id="ruleFile.apply" values={{ count }} />
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
