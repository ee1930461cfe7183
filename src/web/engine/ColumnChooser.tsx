/** Which columns a list shows: a checkbox per column of the schema, and a reset to the schema's own layout. */
import { Button, Checkbox, Menu, MenuDivider, MenuItem, PopoverNext } from '@blueprintjs/core';
import { ColumnLayoutIcon, ResetIcon } from '@blueprintjs/icons';
import { useIntl } from 'react-intl';
import { customName, type CustomFieldDefinition } from '@shared/customFields';
import type { EntitySchema } from '@shared/schema';
import { customFieldNamed } from './customFields';
import type { SavedColumn } from './gridPreferences';

export interface ColumnChooserProps {
  schema: EntitySchema;
  columns: SavedColumn[] | undefined;
  onChange: (columns: SavedColumn[]) => void;
  onReset: () => void;
  /** The custom fields that apply to the user's rows: a column each, hidden unless chosen. */
  custom?: readonly CustomFieldDefinition[];
}

/** The saved columns completed with the schema's and the custom fields', so every column has an entry in display order. */
export function effectiveColumns(schema: EntitySchema, saved: SavedColumn[] | undefined, custom: readonly CustomFieldDefinition[] = []): SavedColumn[] {
  const own = [...schema['x-columns'].map((c) => ({ colId: c.field, hide: Boolean(c.hide) })), ...custom.map((d) => ({ colId: customName(d), hide: true }))];
  if (!saved?.length) return own;
  const known = new Set(own.map((c) => c.colId));
  const kept = saved.filter((c) => known.has(c.colId));
  return [...kept, ...own.filter((c) => !kept.some((k) => k.colId === c.colId))];
}

export function ColumnChooser({ schema, columns, onChange, onReset, custom = [] }: ColumnChooserProps) {
  const intl = useIntl();
  const all = effectiveColumns(schema, columns, custom);
  const visible = all.filter((c) => !c.hide).length;
  const toggle = (colId: string) => onChange(all.map((c) => (c.colId === colId ? { ...c, hide: !c.hide } : c)));
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label={intl.formatMessage({ id: 'list.columns' })} data-testid="column-chooser">
          {all.map((c) => {
            const title = schema.properties[c.colId]?.title;
            // A custom field is named by its tenant's own label, the same in every language.
            const label = customFieldNamed(custom, c.colId)?.label ?? (title ? intl.formatMessage({ id: title }) : c.colId);
            return (
              <li key={c.colId} className="portal-column-choice">
                <Checkbox
                  checked={!c.hide}
                  // The last visible column stays: a grid without columns shows nothing to bring them back from.
                  disabled={!c.hide && visible === 1}
                  label={label}
                  onChange={() => toggle(c.colId)}
                  data-testid={`column-choice-${c.colId}`}
                />
              </li>
            );
          })}
          <MenuDivider />
          <MenuItem icon={<ResetIcon />} text={intl.formatMessage({ id: 'list.columnsReset' })} onClick={onReset} data-testid="column-reset" />
        </Menu>
      }
    >
      <Button icon={<ColumnLayoutIcon />} data-testid="list-columns">
        {intl.formatMessage({ id: 'list.columns' })}
      </Button>
    </PopoverNext>
  );
}
