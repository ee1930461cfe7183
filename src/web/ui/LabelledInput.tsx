import { FormGroup, InputGroup, Intent, type InputGroupProps } from '@blueprintjs/core';
import type { ReactNode } from 'react';

export interface LabelledInputProps extends Omit<InputGroupProps, 'id' | 'intent'> {
  id: string;
  label: ReactNode;
  /** The broken rule, in the user's words; marks the field invalid and is read out with it. */
  error?: ReactNode;
  /** Guidance shown, and read out, while there is no error. */
  hint?: ReactNode;
  /** `alert` announces the error the moment it appears (for errors a server answer brings). */
  errorRole?: 'alert';
}

/** A text input with its label and the message under it, wired for screen readers: one shape for every hand-made form. */
export function LabelledInput({ id, label, error, hint, errorRole, ...input }: LabelledInputProps) {
  const intent = error ? Intent.DANGER : Intent.NONE;
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const helper = error ? (
    <span id={`${id}-error`} role={errorRole}>
      {error}
    </span>
  ) : hint ? (
    <span id={`${id}-hint`}>{hint}</span>
  ) : undefined;
  return (
    <FormGroup label={label} labelFor={id} intent={intent} helperText={helper}>
      <InputGroup id={id} intent={intent} aria-invalid={Boolean(error)} aria-describedby={describedBy} {...input} />
    </FormGroup>
  );
}
