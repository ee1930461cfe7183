import type { FormContextType, RJSFSchema, ValidatorType } from '@rjsf/utils';
import { hashForSchema } from '@rjsf/utils';
// The module itself, not the package's index, whose default validator compiles at run time.
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import validateFns from 'virtual:form-validators';

const validators = new WeakMap<RJSFSchema, ValidatorType>();

/**
 * The validator of an entity form, for its schema as `formSchemaOf` gives it. Its code was generated at build
 * time (validatorsPlugin.ts) with the options of ajvConfig.ts, so it gives the errors a run-time ajv would,
 * without the `new Function` the Content-Security-Policy forbids. Only the schemas in schemas/ have one.
 */
export function formValidatorOf<T = unknown, F extends FormContextType = FormContextType>(schema: RJSFSchema): ValidatorType<T, RJSFSchema, F> {
  let validator = validators.get(schema);
  if (!validator) {
    const key = schema.$id ?? hashForSchema(schema);
    if (!validateFns[key]) {
      throw new Error(`No precompiled validator for form schema ${key}: forms validate the schemas in schemas/, as formSchemaOf gives them`);
    }
    validator = createPrecompiledValidator(validateFns, schema);
    validators.set(schema, validator);
  }
  return validator as ValidatorType<T, RJSFSchema, F>;
}
