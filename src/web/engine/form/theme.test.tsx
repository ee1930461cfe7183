// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createIntl, IntlProvider } from 'react-intl';
import { Classes } from '@blueprintjs/core';
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import de from '../../../../i18n/de.json';
import en from '../../../../i18n/en.json';
import he from '../../../../i18n/he.json';
import zh from '../../../../i18n/zh-Hans.json';
import type { BlueprintFormContext } from './context';
import { createErrorTransformer } from './errors';
import { Form } from './index';
import { runtimeValidator } from './runtimeValidator';

afterEach(cleanup);

function renderThemed(
  schema: RJSFSchema,
  extra: { uiSchema?: UiSchema; formContext?: BlueprintFormContext; formData?: unknown; showErrorList?: false | 'top' } = {},
  locale = 'en',
  messages: Record<string, string> = en,
) {
  const onSubmit = vi.fn();
  render(
    <IntlProvider locale={locale} messages={messages}>
      <Form schema={schema} validator={runtimeValidator} onSubmit={onSubmit} onError={vi.fn()} noHtml5Validate {...extra} />
    </IntlProvider>,
  );
  return { onSubmit, user: userEvent.setup() };
}

describe('Blueprint theme', () => {
  it('draws fields with Blueprint controls and a primary submit button labelled from the catalogue', () => {
    renderThemed(
      {
        type: 'object',
        properties: { city: { type: 'string', title: 'entity.account.field.city' }, notes: { type: 'string', title: 'Notes' } },
      },
      { uiSchema: { notes: { 'ui:widget': 'textarea' } } },
    );
    const city = screen.getByLabelText('City');
    expect(city.className).toContain(Classes.INPUT);
    // A literal title passes through untranslated.
    expect(screen.getByLabelText('Notes').tagName).toBe('TEXTAREA');
    const submit = screen.getByRole('button', { name: 'Save' });
    expect(submit.getAttribute('type')).toBe('submit');
    expect(submit.className).toContain(Classes.INTENT_PRIMARY);
  });

  it('translates RJSF strings: Yes and No of a boolean select, the error list title', async () => {
    const { user } = renderThemed(
      { type: 'object', properties: { flag: { type: 'boolean', title: 'Flag' }, code: { type: 'string', title: 'Code', minLength: 3 } } },
      { uiSchema: { flag: { 'ui:widget': 'select' } }, formData: { code: 'x' }, showErrorList: 'top' },
      'de',
      { ...en, ...de },
    );
    const flag = screen.getByLabelText(/^Flag/);
    expect(
      within(flag)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Bitte wählen…', 'Ja', 'Nein']);

    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    const list = screen.getByText('Fehler').closest<HTMLElement>(`.${Classes.CALLOUT}`);
    expect(list).toBeTruthy();
    expect(list!.className).toContain(Classes.INTENT_DANGER);
  });

  it('reads reference options from the form context, keeping the number type and an unknown value', async () => {
    const schema: RJSFSchema = { type: 'object', properties: { planId: { type: 'integer', title: 'Plan' } } };
    const { user, onSubmit } = renderThemed(schema, {
      uiSchema: { planId: { 'ui:widget': 'reference', 'ui:options': { reference: 'plan' } } },
      formContext: {
        options: {
          plan: [
            { value: 10, label: 'Basic' },
            { value: 20, label: 'Gold' },
          ],
        },
      },
      formData: { planId: 99 },
    });
    const plan = screen.getByLabelText('Plan') as HTMLSelectElement;
    expect(plan.value).toBe('99');
    expect(
      within(plan)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Basic', 'Gold', '99']);
    await user.selectOptions(plan, 'Gold');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0][0].formData).toEqual({ planId: 20 });
  });

  it('names countries in Hebrew and Simplified Chinese', () => {
    const schema: RJSFSchema = { type: 'object', properties: { country: { type: 'string', title: 'entity.account.field.country' } } };
    const uiSchema = { country: { 'ui:widget': 'country' } };
    renderThemed(schema, { uiSchema }, 'he', { ...en, ...he });
    expect(within(screen.getByLabelText('מדינה')).getByRole('option', { name: 'גרמניה' })).toBeTruthy();
    cleanup();
    renderThemed(schema, { uiSchema }, 'zh-Hans', { ...en, ...zh });
    expect(within(screen.getByLabelText('国家/地区')).getByRole('option', { name: '德国' })).toBeTruthy();
  });
});

describe('error messages', () => {
  const intl = createIntl({ locale: 'en', messages: en });

  it('puts a parent-level ajv-errors required message on the missing field', () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['email'],
      properties: { email: { type: 'string', title: 'entity.account.field.email' } },
      errorMessage: { required: { email: 'validation.email.required' } },
    };
    const { errors, errorSchema } = runtimeValidator.validateFormData({}, schema, undefined, createErrorTransformer(schema, intl));
    expect(errorSchema).toEqual({ email: { __errors: ['E-mail is required'] } });
    expect(errors[0].stack).toBe('E-mail: E-mail is required');
  });

  it('gives generic messages to keywords without an errorMessage', () => {
    const schema: RJSFSchema = {
      type: 'object',
      required: ['code'],
      properties: { code: { type: 'string', minLength: 3 }, count: { type: 'integer', maximum: 5 }, kind: { enum: ['a', 'b'] } },
    };
    const transform = createErrorTransformer(schema, intl);
    expect(runtimeValidator.validateFormData({}, schema, undefined, transform).errorSchema).toEqual({ code: { __errors: ['This field is required'] } });
    expect(runtimeValidator.validateFormData({ code: 'x', count: 9, kind: 'c' }, schema, undefined, transform).errorSchema).toEqual({
      code: { __errors: ['Must be at least 3 characters'] },
      count: { __errors: ['Must be at most 5'] },
      kind: { __errors: ['This value is not valid'] },
    });
  });
});
