import { Callout, Intent } from '@blueprintjs/core';
import { TranslatableString } from '@rjsf/utils';
import type { ErrorListProps, FormContextType, RJSFSchema, StrictRJSFSchema } from '@rjsf/utils';

/** All errors of the form in one danger Callout, for forms that show the list (`showErrorList`). */
export default function ErrorList<T = unknown, S extends StrictRJSFSchema = RJSFSchema, F extends FormContextType = FormContextType>({
  errors,
  registry,
}: ErrorListProps<T, S, F>) {
  return (
    <Callout intent={Intent.DANGER} title={registry.translateString(TranslatableString.ErrorsLabel)}>
      <ul>
        {errors.map((error, i) => (
          <li key={i}>{error.stack}</li>
        ))}
      </ul>
    </Callout>
  );
}
