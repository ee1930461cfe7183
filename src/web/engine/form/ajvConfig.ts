/**
 * How ajv is set up for the forms, shared by the validators precompiled at build time (validatorsPlugin.ts)
 * and the run-time one of the tests (runtimeValidator.ts), so both report the same errors.
 * ajv-errors needs `allErrors`; `$data` lets a schema compare fields. `strict: false` because schemas carry
 * annotation keywords of their own. Formats come from our ajv-formats in the extender, so RJSF's bundled copy
 * is switched off (`ajvFormatOptions: false`) rather than registered twice.
 */
import type { CustomValidatorOptionsType } from '@rjsf/validator-ajv8';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';

export const AJV_OPTIONS = {
  ajvOptionsOverrides: { allErrors: true, $data: true, strict: false },
  ajvFormatOptions: false,
  extenderFn: (ajv) => {
    addFormats(ajv);
    ajvErrors(ajv);
    return ajv;
  },
} satisfies CustomValidatorOptionsType;
