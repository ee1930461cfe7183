import { customizeValidator } from '@rjsf/validator-ajv8';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';

/**
 * The validator of every entity form. ajv-errors needs `allErrors`; `$data` lets a schema compare fields.
 * `strict: false` because schemas carry annotation keywords of their own. Formats come from our ajv-formats
 * in the extender, so RJSF's bundled copy is switched off rather than registered twice.
 * One instance for the app: ajv caches each compiled schema, so a form compiles once per schema object.
 */
export const formValidator = customizeValidator({
  ajvOptionsOverrides: { allErrors: true, $data: true, strict: false },
  ajvFormatOptions: false,
  extenderFn: (ajv) => {
    addFormats(ajv);
    ajvErrors(ajv);
    return ajv;
  },
});
