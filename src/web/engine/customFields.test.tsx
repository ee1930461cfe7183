// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { seedCustomFields } from '../../../mocks/customFieldHandlers';
import { seedSubscribers } from '../../../mocks/subscriberHandlers';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

function render(route: string, user = 'admin') {
  seedSubscribers(api.db);
  seedCustomFields(api.db);
  return renderWithProviders(<AppRoutes />, { route, preloadedState: signedIn(mockToken(user)) });
}

const headers = (grid: HTMLElement) =>
  within(grid)
    .queryAllByRole('columnheader')
    .map((h) => h.getAttribute('col-id'));
const cell = (grid: HTMLElement, rowId: number, colId: string) => grid.querySelector(`[row-id="${rowId}"] [col-id="${colId}"]`)?.textContent;
/** Whether an element shows: fields a form hides stay in the page inside a `hidden` wrapper. */
const shows = (element: Element | null) => element !== null && element.closest('[hidden]') === null;
const lastBody = (suffix: string) => api.requests(suffix, 'POST').at(-1)?.body as Record<string, unknown> | undefined;

describe('custom fields in the subscriber list', () => {
  it('offers each field, under its own label, as a hidden column that shows its values formatted and sorts on the server', async () => {
    api.db.tables.subscriber = [];
    const { user } = render('/subscribers');
    Object.assign(api.db.tables.subscriber.find((s) => s.subscriberId === 7)!.custom as object, { installed: '2024-01-05', sites: 1250 });
    api.db.tables.customField.find((d) => d.key === 'sites')!.maximum = 5000;
    const grid = await screen.findByTestId('grid-subscriber');
    expect(headers(grid)).not.toContain('custom.contractRef');
    await user.click(screen.getByTestId('list-columns'));
    const choice = await screen.findByTestId('column-choice-custom.installed');
    expect(choice.closest('label')?.textContent).toBe('Installed on');
    expect((choice as HTMLInputElement).checked).toBe(false);
    await user.click(choice);
    await user.click(screen.getByTestId('column-choice-custom.sites'));
    await waitFor(() => expect(headers(grid)).toEqual(expect.arrayContaining(['custom.installed', 'custom.sites'])));
    expect(within(grid).getByText('Installed on')).toBeTruthy();
    await waitFor(() => expect(cell(grid, 7, 'custom.installed')).toBe('Jan 5, 2024'));
    expect(cell(grid, 7, 'custom.sites')).toBe('1,250');
    expect(cell(grid, 8, 'custom.sites')).toBe('—');
    // The layout is saved like any other column's.
    await waitFor(() => expect(lastBody('/portal/user/preferences')).toBeDefined());
    const items = JSON.parse(lastBody('/portal/user/preferences')!.preferences as string) as { type: string; value: string }[];
    const layout = JSON.parse(items.find((i) => i.type === 'grid.subscriber')!.value) as { columns: { colId: string; hide?: boolean }[] };
    expect(layout.columns.find((c) => c.colId === 'custom.installed')).toMatchObject({ hide: false });

    await user.click(within(grid).getByText('Sites'));
    await waitFor(() => expect(lastBody('/portal/subscribers/paged')).toMatchObject({ sortBy: 'custom.sites', sortDir: 'asc' }));
  });

  it('searches by a field chosen by its label, on the server', async () => {
    const { user } = render('/subscribers');
    const by = await screen.findByTestId('list-search-by');
    await waitFor(() => expect(within(by).getByRole('option', { name: 'Tier' })).toBeTruthy());
    await user.selectOptions(by, 'custom.tier');
    await user.type(screen.getByTestId('list-search'), 'gold{Enter}');
    await waitFor(() => expect(lastBody('/portal/subscribers/search')).toMatchObject({ searchBy: 'custom.tier', searchKey: 'gold' }));
    const grid = await screen.findByTestId('grid-subscriber');
    await waitFor(() => expect(grid.querySelectorAll('[row-id]').length).toBeGreaterThan(0));
    await waitFor(() => expect([...new Set([...grid.querySelectorAll('[row-id]')].map((r) => r.getAttribute('row-id')))]).toEqual(['7']));
  });

  it('keeps a custom sort and filter of the address once the fields are known', async () => {
    render('/subscribers?searchBy=custom.contractRef&searchKey=A-7&sortBy=custom.tier&sortDir=desc');
    await screen.findByTestId('grid-subscriber');
    await waitFor(() => expect(api.requests('/portal/subscribers/search', 'POST')).not.toHaveLength(0));
    expect(api.requests('/portal/subscribers/search', 'POST').map((r) => r.body)).toContainEqual(
      expect.objectContaining({ searchBy: 'custom.contractRef', searchKey: 'A-7', sortBy: 'custom.tier', sortDir: 'desc' }),
    );
    expect((screen.getByTestId('list-search-by') as HTMLSelectElement).value).toBe('custom.contractRef');
  });
});

describe('custom fields on the subscriber page', () => {
  const panel = () => screen.findByTestId('panel-custom');

  it('edits the values by type, with the rules as hints and instant checks, and sends only what changed', async () => {
    const { user } = render('/subscriber/7');
    const custom = await panel();
    const text = (await within(custom).findByLabelText(/^Contract ref/)) as HTMLInputElement;
    expect(text.value).toBe('A-7');
    expect((within(custom).getByLabelText(/^Tier/) as HTMLSelectElement).value).toBe('Gold');
    expect((within(custom).getByLabelText(/^Installed on/) as HTMLInputElement).type).toBe('date');
    expect(within(custom).getByTestId('custom-contractRef').textContent).toContain('At most 12 characters · Format: ^[A-Z]-\\d+$');
    expect(within(custom).getByTestId('custom-sites').textContent).toContain('From 1 to 500');
    expect(within(custom).getByTestId('custom-installed').textContent).toContain('From Jan 1, 2020');

    await user.clear(text);
    await user.type(text, 'b9');
    expect((await within(custom).findByTestId('custom-error-contractRef')).textContent).toBe("Does not match the field's format");
    const save = within(custom).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    expect(within(custom).getByTestId('save-blocked').textContent).toContain('Contract ref');

    const sites = within(custom).getByLabelText(/^Sites/) as HTMLInputElement;
    await user.type(sites, '1.');
    expect(sites.value).toBe('1.');
    expect((await within(custom).findByTestId('custom-error-sites')).textContent).toBe('Enter a number');
    await user.type(sites, '5');
    await waitFor(() => expect(within(custom).queryByTestId('custom-error-sites')).toBeNull());
    await user.clear(sites);
    await user.type(sites, '600');
    expect((await within(custom).findByTestId('custom-error-sites')).textContent).toBe('Larger than this field allows');
    await user.clear(sites);
    await user.type(sites, '2,5');
    await waitFor(() => expect(within(custom).queryByTestId('custom-error-sites')).toBeNull());
    expect(sites.value).toBe('2,5');
    await user.clear(sites);
    await user.type(sites, '40');

    await user.clear(text);
    await user.type(text, 'B-9');
    await user.selectOptions(within(custom).getByLabelText(/^Tier/), '');
    await waitFor(() => expect(save.disabled).toBe(false));
    await user.click(save);
    await waitFor(() => expect(api.requests('/portal/subscriber-info/7', 'POST')).toHaveLength(1));
    expect(api.requests('/portal/subscriber-info/7', 'POST')[0].body).toMatchObject({ custom: { contractRef: 'B-9', tier: null, sites: 40 } });
    expect(Object.keys((api.requests('/portal/subscriber-info/7', 'POST')[0].body as { custom: object }).custom).sort()).toEqual([
      'contractRef',
      'sites',
      'tier',
    ]);
    expect(api.db.tables.subscriber.find((s) => s.subscriberId === 7)!.custom).toEqual({ contractRef: 'B-9', sites: 40 });
  });

  it("shows the server's error under the field it names", async () => {
    const { user } = render('/subscriber/7');
    api.server.use(
      http.post('*/portal/subscriber-info/7', () =>
        HttpResponse.json(
          {
            statusCode: 400,
            code: 'VALIDATION',
            message: 'invalid',
            fields: [{ field: 'custom.tier', rule: 'enum', messageId: 'validation.custom.choice', message: "Choose one of the field's options" }],
          },
          { status: 400 },
        ),
      ),
    );
    const custom = await panel();
    await user.selectOptions(await within(custom).findByLabelText(/^Tier/), 'Silver');
    await user.click(within(custom).getByRole('button', { name: 'Save' }));
    expect((await within(custom).findByTestId('custom-error-tier')).textContent).toBe("Choose one of the field's options");
  });

  it('shows no panel when no field applies', async () => {
    render('/subscriber/7');
    api.db.tables.customField = [];
    await screen.findByTestId('panel-details');
    await waitFor(() => expect(api.requests('/portal/custom-fields/applicable/subscriber')).not.toHaveLength(0));
    expect(screen.queryByTestId('panel-custom')).toBeNull();
  });
});

describe('the custom field definitions', () => {
  it('shows the options of the chosen type only, and choices as tags', async () => {
    const { user } = render('/custom-field/new');
    const type = (await screen.findByLabelText(/^Type/)) as HTMLSelectElement;
    expect(shows(screen.queryByTestId('tags-choices'))).toBe(false);
    await user.selectOptions(type, 'text');
    await waitFor(() => expect(shows(screen.queryByLabelText(/^Pattern/))).toBe(true));
    expect(shows(screen.queryByLabelText(/^Earliest date/))).toBe(false);
    await user.selectOptions(type, 'choice');
    await waitFor(() => expect(shows(screen.queryByTestId('tags-choices'))).toBe(true));
    const tags = screen.getByTestId('tags-choices');
    expect(shows(screen.queryByLabelText(/^Pattern/))).toBe(false);
    const input = within(tags).getByRole('textbox');
    await user.type(input, 'Gold{Enter}Silver{Enter}Gold{Enter}');
    expect(
      within(tags)
        .getAllByText(/Gold|Silver/)
        .map((t) => t.textContent),
    ).toEqual(['Gold', 'Silver']);

    await user.type(screen.getByLabelText(/^Label/), 'Tier');
    await user.type(screen.getByLabelText(/^Key/), 'tier');
    await user.selectOptions(screen.getByLabelText(/^Added to/), 'subscriber');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.requests('/portal/custom-fields', 'POST')).toHaveLength(1));
    expect(api.requests('/portal/custom-fields', 'POST')[0].body).toMatchObject({ label: 'Tier', key: 'tier', type: 'choice', choices: ['Gold', 'Silver'] });
  });

  it('keeps entity, key and type read-only on an existing field', async () => {
    render('/custom-field/2');
    const type = (await screen.findByLabelText(/^Type/)) as HTMLSelectElement;
    await waitFor(() => expect(type.value).toBe('choice'));
    expect(type.disabled).toBe(true);
    expect((screen.getByLabelText(/^Added to/) as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Key/) as HTMLInputElement).readOnly || (screen.getByLabelText(/^Key/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(/^Label/) as HTMLInputElement).disabled).toBe(false);
  });
});

describe('the settings link', () => {
  it('is in the user menu of a reseller holding CustomFields and opens the definitions', async () => {
    api.db.users.find((u) => u.username === 'nora')!.privileges.push({ privilege: 'CustomFields', subPrivileges: [] });
    const { user } = render('/', 'nora');
    await user.click(await screen.findByTestId('avatar'));
    await user.click(await screen.findByTestId('menu-settings-customFields'));
    expect(await screen.findByTestId('list-customField')).toBeTruthy();
  });
});
