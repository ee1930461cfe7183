/** Validate functions precompiled from schemas/ by validatorsPlugin.ts, by schema key (`$id` or RJSF hash). */
declare module 'virtual:form-validators' {
  import type { ValidatorFunctions } from '@rjsf/validator-ajv8';

  const validateFns: ValidatorFunctions;
  export default validateFns;
}
