/**
 * A cell editor that offers a list of choices in a native select (keyboard and screen readers work as in any
 * form): the network picker, countries' groups, yes and no. Choosing ends the edit.
 */
import { HTMLSelect } from '@blueprintjs/core';
import type { CustomCellEditorProps } from 'ag-grid-react';
import { useEffect, useRef } from 'react';
import type { EntityRow } from '@web/core/types';

export interface Choice {
  value: string;
  label: string;
}

export interface ChoiceEditorParams {
  /** The choices for this row, e.g. the networks of the row's country. */
  choicesOf: (row: EntityRow) => Choice[];
  /** The current choice, when the cell shows something else (a network's name, its PLMN chosen). */
  currentOf?: (row: EntityRow) => string;
  placeholder: string;
}

export function ChoiceEditor(props: CustomCellEditorProps<EntityRow> & ChoiceEditorParams) {
  const { data, value, onValueChange, stopEditing, choicesOf, currentOf, placeholder, colDef } = props;
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => select.current?.focus(), []);
  const choices = choicesOf(data);
  const current = currentOf ? currentOf(data) : value === undefined || value === null ? '' : String(value);
  return (
    <HTMLSelect
      ref={select}
      fill
      aria-label={colDef.headerName}
      value={choices.some((c) => c.value === current) ? current : ''}
      onChange={(event) => {
        onValueChange(event.target.value);
        // Let the grid read the new value before the editor closes.
        setTimeout(() => stopEditing());
      }}
    >
      <option value="">{placeholder}</option>
      {choices.map((c) => (
        <option key={c.value} value={c.value}>
          {c.label}
        </option>
      ))}
    </HTMLSelect>
  );
}
