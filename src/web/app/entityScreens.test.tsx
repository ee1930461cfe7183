// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiRoute, type EntitySchema } from '@shared/schema';
import { exampleBody } from '@shared/schemaExample';
import { AppRoutes } from '@web/app/AppRoutes';
import { ENTITY_SCHEMAS } from '@web/core/schemas';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

/** Entities whose screens, menu entry and English texts all come from their schema (e.g. contact types). */
const fromSchemaAlone = ENTITY_SCHEMAS.filter((s) => s['x-entity'].menu && s['x-entity'].labels && s['x-entity'].routes?.list && apiRoute(s, 'create'));

describe.each(fromSchemaAlone.map((s) => [s['x-entity'].name, s] as const))('%s, from its schema alone', (name, schema: EntitySchema) => {
  it('has a menu entry, a titled list and a form that creates a row', async () => {
    const labels = schema['x-entity'].labels!;
    const { user } = renderWithProviders(<AppRoutes />, { route: schema['x-entity'].routes!.list!, preloadedState: signedIn(mockToken('admin')) });
    const entry = await screen.findByTestId(`menu-${name}`, undefined, { timeout: 15000 });
    expect(entry.textContent).toContain(labels.plural);
    await waitFor(() => expect(document.title).toBe(`${labels.plural} · Connectivity Portal`));
    await user.click(await screen.findByTestId('list-create'));
    expect(await screen.findByRole('heading', { name: `New ${labels.single}` })).toBeTruthy();
    expect(document.title).toBe(`New ${labels.single} · Connectivity Portal`);
    // The required text and number fields, typed by their English labels.
    const body = exampleBody(schema, { seed: 'web' });
    for (const [field, value] of Object.entries(body)) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const label = (schema.properties[field]['x-label'] ?? field).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      await user.type(await screen.findByLabelText(new RegExp(`^${label}`), undefined, { timeout: 15000 }), String(value));
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const create = apiRoute(schema, 'create')!;
    await waitFor(() => expect(api.requests(create.path, create.method)).toHaveLength(1));
    expect(api.requests(create.path, create.method)[0].body).toMatchObject(body);
    if (typeof body.name === 'string') expect(await screen.findByRole('heading', { name: body.name })).toBeTruthy();
  }, 40_000);
});

it('covers contact types', () => {
  expect(fromSchemaAlone.map((s) => s['x-entity'].name)).toContain('contactType');
});
