import type { KeyboardEvent } from 'react';
import { MenuItem } from '@blueprintjs/core';
import type { ItemRenderer } from '@blueprintjs/select';
import '@blueprintjs/select/lib/css/blueprint-select.css';

interface Option {
  value: string | number;
  label: string;
}

/** A multi-select's options are found by part of their label, or by their exact value (a code, an id). */
export function matchesOption(query: string, item: Option): boolean {
  const q = query.trim().toLocaleLowerCase();
  return !q || item.label.toLocaleLowerCase().includes(q) || String(item.value).toLocaleLowerCase() === q;
}

/** Draws a multi-select's options, ticking the chosen ones; `showValue` adds the value (e.g. a country code) at the end. */
export function optionRenderer<T extends Option>(chosen: readonly (string | number)[], showValue = false): ItemRenderer<T> {
  return (item, { handleClick, handleFocus, modifiers }) =>
    modifiers.matchesPredicate ? (
      <MenuItem
        key={item.value}
        text={item.label}
        label={showValue ? String(item.value) : undefined}
        roleStructure="listoption"
        selected={chosen.includes(item.value)}
        active={modifiers.active}
        onClick={handleClick}
        onFocus={handleFocus}
      />
    ) : null;
}

/**
 * A multi-select's target props: Enter in its text box picks the highlighted option (Blueprint does that on key
 * up) and must not also submit the form around it, which the browser does on key down in any text box.
 */
export const PICKER_TARGET_PROPS = {
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
    if (event.key === 'Enter' && !event.nativeEvent.isComposing && event.target instanceof HTMLInputElement) event.preventDefault();
  },
};
