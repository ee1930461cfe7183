// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { setupMockApi } from '@web/test/mockApi';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { errorResponse, fieldError } from '../../../../mocks/http';
import { mockToken } from '../../../../mocks/token';

const api = setupMockApi();
const RULES = '/portal/pricing-plans/local/2/rules';

const rule = (id: number, over: Record<string, unknown>) => ({
  id,
  planId: 2,
  country: 'DE',
  mcc: '262',
  mnc: '01',
  plmn: '26201',
  network: 'Telekom',
  currency: 'EUR',
  dataRate: 0.0035,
  moCallRate: 0.09,
  dailyCap: false,
  discounted: false,
  startDate: '2026-01-01T00:00:00.000Z',
  hidden: false,
  ...over,
});

/** The mock plan's two rules, the network catalogue, and a batch save that records what it was sent. */
function serveRules(batch: (body: unknown) => Response = () => HttpResponse.json({ saved: [], deleted: [] })) {
  const rows = [rule(11, {}), rule(12, { country: 'FR', mcc: '208', mnc: '01', plmn: '20801', network: 'Orange', dataRate: 0.004 })];
  api.server.use(
    http.post(`${RULES}/paged`, () => HttpResponse.json({ items: rows, totalItemsCount: 2, totalPageCount: 1, currentPage: 0 })),
    http.post(`${RULES}/batch`, async ({ request }) => batch(await request.json())),
    http.get('/portal/networks', () =>
      HttpResponse.json({
        items: [
          { id: 1, plmn: '26201', mcc: '262', mnc: '01', country: 'DE', operator: 'Telekom Deutschland', brand: 'Telekom' },
          { id: 2, plmn: '26202', mcc: '262', mnc: '02', country: 'DE', operator: 'Vodafone GmbH', brand: 'Vodafone' },
          { id: 3, plmn: '20801', mcc: '208', mnc: '01', country: 'FR', operator: 'Orange', brand: 'Orange' },
        ],
        totalItemsCount: 3,
        totalPageCount: 1,
        currentPage: 0,
      }),
    ),
  );
}

function cell(rowIndex: number, colId: string): HTMLElement {
  const found = screen.getByTestId('rules-grid').querySelector(`[role="row"][row-index="${rowIndex}"] [role="gridcell"][col-id="${colId}"]`);
  if (!found) throw new Error(`no cell ${colId} in row ${rowIndex}`);
  return found as HTMLElement;
}

const rowCount = () => new Set([...screen.getByTestId('rules-grid').querySelectorAll('[role="row"][row-index]')].map((r) => r.getAttribute('row-index'))).size;

async function renderRules() {
  const rendered = renderWithProviders(<AppRoutes />, { route: '/pricing-plan-rules/2', preloadedState: signedIn(mockToken('admin')) });
  // The first screen of a run waits for its lazy chunk (grid, validators) to compile.
  await screen.findByTestId('rules-grid', {}, { timeout: 20000 });
  await waitFor(() => expect(cell(1, 'network').textContent).toBe('Orange'));
  return rendered;
}

type User = Awaited<ReturnType<typeof renderRules>>['user'];

async function typeInto(user: User, target: HTMLElement, text: string) {
  await user.dblClick(target);
  const input = await waitFor(() => target.querySelector('input') as HTMLInputElement);
  await user.clear(input);
  await user.type(input, `${text}{Enter}`);
}

/** Opens a cell's picker and chooses the option of this value; answers the picker's options as shown. */
async function pick(user: User, target: HTMLElement, value: string): Promise<{ value: string; text: string }[]> {
  await user.dblClick(target);
  const picker = await waitFor(() => target.querySelector('select') as HTMLSelectElement);
  const options = [...picker.options].map((o) => ({ value: o.value, text: o.text }));
  await user.selectOptions(picker, value);
  return options;
}

const paste = (target: HTMLElement, text: string) => fireEvent.paste(target, { clipboardData: { getData: () => text } });

describe('roaming rules grid', () => {
  it("shows the server's page with rates in the plan's currency", async () => {
    serveRules();
    await renderRules();
    expect(cell(0, 'dataRate').textContent).toBe('€0.0035');
    expect(cell(1, 'plmn').textContent).toBe('20801');
    expect(api.requests(`${RULES}/paged`, 'POST')[0].body).toEqual({ sortBy: 'country', sortDir: 'asc', page: { page: 0, size: 100 } });
  });

  it('edits a cell, refuses an invalid value with its message, and saves the change in one batch', async () => {
    const sent: unknown[] = [];
    serveRules((body) => (sent.push(body), HttpResponse.json({ saved: [11], deleted: [] })));
    const { user } = await renderRules();

    await typeInto(user, cell(0, 'dataRate'), 'abc');
    await waitFor(() => expect(cell(0, 'dataRate').classList.contains('portal-cell-invalid')).toBe(true));
    expect(screen.getByTestId('rules-errors').textContent).toBe(
      'Row 1, Data rate (per MB): Please enter a rate from 0 to 999999.999999 with at most 6 decimals',
    );
    await user.click(screen.getByTestId('rules-save'));
    expect(sent).toEqual([]);

    await typeInto(user, cell(0, 'dataRate'), '0,05');
    await waitFor(() => expect(cell(0, 'dataRate').textContent).toBe('€0.05'));
    expect(screen.queryByTestId('rules-errors')).toBeNull();
    expect(screen.getByTestId('rules-pending').textContent).toBe('1 row changed, not saved yet');
    await user.click(screen.getByTestId('rules-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ save: [expect.objectContaining({ id: 11, dataRate: 0.05, mcc: '262', mnc: '01', country: 'DE' })], delete: [] });
    expect((sent[0] as { save: Record<string, unknown>[] }).save[0]).not.toHaveProperty('plmn');
  });

  it('pastes a block of cells from the focused one, appending rows past the end, and undoes it in one step', async () => {
    serveRules();
    const { user } = await renderRules();
    await user.click(cell(0, 'dataRate'));
    fireEvent.paste(cell(0, 'dataRate'), { clipboardData: { getData: () => '0.1\t0.2\n0.3\t0.4\n0.5\t0.6\n' } });
    await waitFor(() => expect(cell(0, 'dataRate').textContent).toBe('€0.10'));
    expect(cell(0, 'moCallRate').textContent).toBe('€0.20');
    expect(cell(1, 'dataRate').textContent).toBe('€0.30');
    expect(cell(1, 'moCallRate').textContent).toBe('€0.40');
    // The third line became a new row; it still needs its country and network, which are marked.
    expect(cell(2, 'dataRate').textContent).toBe('€0.50');
    expect(cell(2, 'country').classList.contains('portal-cell-invalid')).toBe(true);

    await user.click(screen.getByTestId('rules-undo'));
    await waitFor(() => expect(cell(0, 'dataRate').textContent).toBe('€0.0035'));
    expect(cell(1, 'moCallRate').textContent).toBe('€0.09');
    expect(rowCount()).toBe(2);
    expect(screen.getByTestId('rules-undo')).toHaveProperty('disabled', true);
  });

  it('adds and deletes rows, and marks the cell a refused batch names', async () => {
    const sent: { save: Record<string, unknown>[]; delete: number[] }[] = [];
    serveRules((body) => {
      sent.push(body as (typeof sent)[number]);
      return errorResponse(400, 'VALIDATION', 'Invalid input', [fieldError('save[0].mnc', 'network', 'validation.network.unknown')]);
    });
    const { user } = await renderRules();
    const checkbox = within(screen.getByTestId('rules-grid').querySelector('[row-index="1"]') as HTMLElement).getAllByRole('checkbox')[0];
    await user.click(checkbox);
    await user.click(screen.getByTestId('rules-delete'));
    await waitFor(() => expect(rowCount()).toBe(1));
    await user.click(screen.getByTestId('rules-add'));
    await waitFor(() => expect(cell(1, 'currency').textContent).toBe('EUR'));
    await pick(user, cell(1, 'country'), 'DE');
    for (const [col, value] of [
      ['mcc', '262'],
      ['mnc', '02'],
    ])
      await typeInto(user, cell(1, col), value);
    await waitFor(() => expect(screen.queryByTestId('rules-errors')).toBeNull());

    await user.click(screen.getByTestId('rules-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].delete).toEqual([12]);
    expect(sent[0].save).toEqual([expect.objectContaining({ country: 'DE', mcc: '262', mnc: '02', currency: 'EUR' })]);
    expect(sent[0].save[0]).not.toHaveProperty('id');
    await waitFor(() => expect(cell(1, 'mnc').classList.contains('portal-cell-invalid')).toBe(true));
    expect(screen.getByTestId('rules-errors').textContent).toBe('Row 2, MNC: No mobile network of the catalogue has this MCC and MNC');
  });

  it('shows countries by name and picks a real one, storing its code; a name that is no country is refused', async () => {
    const sent: { save: Record<string, unknown>[] }[] = [];
    serveRules((body) => (sent.push(body as (typeof sent)[number]), HttpResponse.json({ saved: [11], deleted: [] })));
    const { user } = await renderRules();
    expect([cell(0, 'country').textContent, cell(1, 'country').textContent]).toEqual(['DE · Germany', 'FR · France']);

    const options = await pick(user, cell(0, 'country'), 'AT');
    expect(options).toContainEqual({ value: 'DE', text: 'Germany' });
    expect(options.filter((o) => o.value).every((o) => /^[A-Z]{2}$/.test(o.value))).toBe(true);
    await waitFor(() => expect(cell(0, 'country').textContent).toBe('AT · Austria'));
    // There is no typing free text into the picker: a key opens it.
    await user.click(cell(1, 'country'));
    await user.keyboard('x');
    expect(cell(1, 'country').querySelector('input')).toBeNull();
    await user.keyboard('{Escape}');

    // Pasted text is taken by name in any of the portal's languages, or refused.
    await user.click(cell(1, 'country'));
    paste(cell(1, 'country'), 'Atlantis');
    await waitFor(() => expect(cell(1, 'country').classList.contains('portal-cell-invalid')).toBe(true));
    expect(screen.getByTestId('rules-errors').textContent).toBe('Row 2, Country: Please choose a country');
    paste(cell(1, 'country'), 'XX');
    await waitFor(() => expect(screen.getByTestId('rules-errors').textContent).toBe('Row 2, Country: Please choose a country'));
    paste(cell(1, 'country'), 'Frankreich');
    await waitFor(() => expect(screen.queryByTestId('rules-errors')).toBeNull());
    expect(cell(1, 'country').textContent).toBe('FR · France');

    await user.click(screen.getByTestId('rules-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].save.map((r) => [r.id, r.country])).toEqual([
      [11, 'AT'],
      [12, 'FR'],
    ]);
  });

  it('reads a date typed without a time, and says an end before the start must come after it', async () => {
    serveRules();
    const { user } = await renderRules();
    await typeInto(user, cell(0, 'endDate'), '2025-12-31');
    await waitFor(() => expect(cell(0, 'endDate').classList.contains('portal-cell-invalid')).toBe(true));
    expect(screen.getByTestId('rules-errors').textContent).toBe('Row 1, End date: End date must be after the start date');
    await typeInto(user, cell(0, 'endDate'), '2026-12-31');
    await waitFor(() => expect(screen.queryByTestId('rules-errors')).toBeNull());
  });

  it("picks a network of the row's country, which fills in MCC, MNC and PLMN", async () => {
    serveRules();
    const { user } = await renderRules();
    await user.click(screen.getByTestId('rules-add'));
    await pick(user, cell(2, 'country'), 'DE');
    await user.dblClick(cell(2, 'network'));
    const picker = await waitFor(() => cell(2, 'network').querySelector('select') as HTMLSelectElement);
    expect([...picker.options].map((o) => o.text)).toEqual(['Choose a network…', 'Telekom (26201)', 'Vodafone (26202)']);
    await user.selectOptions(picker, '26202');
    await waitFor(() => expect(cell(2, 'network').textContent).toBe('Vodafone'));
    expect([cell(2, 'mcc').textContent, cell(2, 'mnc').textContent, cell(2, 'plmn').textContent]).toEqual(['262', '02', '26202']);
    expect(screen.queryByTestId('rules-errors')).toBeNull();
  });
});

describe("an account's user", () => {
  // Plans are the reseller's business: the server refuses an account user every write of a plan or rule (403), so
  // the screen offers none of them.
  it('reads the rules without a control that edits, pastes or uploads them', async () => {
    serveRules();
    const nora = api.db.users.find((u) => u.username === 'nora')!;
    Object.assign(nora, { accountId: 5, privileges: [...nora.privileges, { privilege: 'PricingPlans', subPrivileges: [] }] });
    const { user } = renderWithProviders(<AppRoutes />, { route: '/pricing-plan-rules/2', preloadedState: signedIn(mockToken('nora')) });
    await screen.findByTestId('rules-grid', {}, { timeout: 20000 });
    await waitFor(() => expect(cell(1, 'network').textContent).toBe('Orange'));
    expect(screen.queryByTestId('rules-add')).toBeNull();
    expect(screen.queryByTestId('rules-save')).toBeNull();
    expect(screen.queryByTestId('rule-file-input')).toBeNull();
    expect(screen.queryByTestId('rule-file-check')).toBeNull();
    expect(screen.getByTestId('rule-file-download')).toBeTruthy();
    await user.dblClick(cell(0, 'dataRate'));
    expect(cell(0, 'dataRate').querySelector('input')).toBeNull();
    paste(cell(0, 'dataRate'), '0.5');
    expect(screen.queryByTestId('rules-pending')).toBeNull();
  });
});

describe('rule file', () => {
  it('asks for a file and refuses one of 4 MB before sending anything', async () => {
    serveRules();
    const { user } = await renderRules();
    await user.click(screen.getByTestId('rule-file-check'));
    expect(screen.getByTestId('rule-file-problem').textContent).toBe('Please select a file.');
    const input = screen.getByTestId('rule-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File([new Uint8Array(4 * 1024 * 1024)], 'big.csv', { type: 'text/csv' }));
    expect(screen.getByTestId('rule-file-problem').textContent).toBe('File size should be less than 4 MB!');
    await user.click(screen.getByTestId('rule-file-check'));
    expect(api.requests('/by-csv')).toHaveLength(0);
  });

  it('lists every rejected line the check finds, shows what applying changes, and applies the file only once confirmed', async () => {
    serveRules();
    const confirms: (string | null)[] = [];
    const changes = {
      added: 1,
      changed: 1,
      removed: 2,
      unchanged: 0,
      samples: {
        added: [rule(0, { country: 'AT', mcc: '232', mnc: '01', plmn: '23201', network: 'A1' })],
        changed: [{ before: rule(11, {}), after: rule(0, { dataRate: 0.005, endDate: '2026-12-31T00:00:00.000Z' }), fields: ['dataRate', 'endDate'] }],
        removed: [rule(12, { country: 'FR', mcc: '208', mnc: '01', plmn: '20801', network: 'Orange' })],
      },
    };
    api.server.use(
      http.post('/portal/pricing-plans/local/2/by-csv', ({ request }) => {
        const confirm = new URL(request.url).searchParams.get('confirm');
        confirms.push(confirm);
        const rejected = [
          { line: 3, values: {}, fields: [fieldError('mnc', 'pattern', 'validation.mnc.invalid'), fieldError('dataRate', 'type', 'validation.rate.invalid')] },
        ];
        return HttpResponse.json({ total: 3, valid: 2, rejected, applied: confirm ? 2 : 0, ...(confirm ? {} : { changes }) });
      }),
    );
    const { user } = await renderRules();
    const input = screen.getByTestId('rule-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['country,mcc,mnc,startDate\n'], 'rules.csv', { type: 'text/csv' }));
    await user.click(screen.getByTestId('rule-file-check'));
    const rejected = await screen.findByTestId('rule-file-rejected');
    expect(
      within(rejected)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['LineReasons', '3MNC: MNC must be 2 or 3 digitsData rate (per MB): Please enter a rate from 0 to 999999.999999 with at most 6 decimals']);
    expect(screen.getByTestId('rule-file-report').textContent).toContain('3 lines: 2 valid, 1 rejected. Nothing has been written yet.');
    await user.click(screen.getByTestId('rule-file-apply'));
    const dialog = await screen.findByRole('dialog', { name: "Apply the file's rules?" });
    expect(within(dialog).getByTestId('rule-changes-summary').textContent).toBe(
      "Applying replaces the plan's rules: 1 added, 1 changed, 2 removed, 0 unchanged.",
    );
    expect(within(dialog).getByTestId('rule-changes-added').textContent).toBe('1 rule addedAustria, A1 23201, from Jan 1, 2026, 12:00 AM');
    const changed = within(dialog).getByTestId('rule-changes-changed');
    expect(
      within(changed)
        .getAllByRole('listitem')
        .filter((li) => li.dataset.field)
        .map((li) => li.textContent),
    ).toEqual(['Data rate (per MB): €0.0035 → €0.005', 'End date: — → Dec 31, 2026, 12:00 AM']);
    expect(within(dialog).getByTestId('rule-changes-removed').textContent).toBe('2 rules removedFrance, Orange 20801, from Jan 1, 2026, 12:00 AMand 1 more');

    // Cancel: nothing is sent, the report stays as checked.
    await user.click(within(dialog).getByTestId('rule-changes-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(confirms).toEqual([null]);
    expect(screen.getByTestId('rule-file-report').textContent).toContain('Nothing has been written yet.');

    await user.click(screen.getByTestId('rule-file-apply'));
    await user.click(await screen.findByTestId('rule-changes-apply'));
    await waitFor(() => expect(screen.getByTestId('rule-file-report').textContent).toContain('2 rules applied'));
    expect(confirms).toEqual([null, 'true']);
  });

  it('says why Apply is disabled when the file has no valid line', async () => {
    serveRules();
    api.server.use(
      http.post('/portal/pricing-plans/local/2/by-csv', () =>
        HttpResponse.json({
          total: 1,
          valid: 0,
          rejected: [{ line: 2, values: {}, fields: [fieldError('mnc', 'pattern', 'validation.mnc.invalid')] }],
          applied: 0,
          changes: { added: 0, changed: 0, removed: 0, unchanged: 0, samples: { added: [], changed: [], removed: [] } },
        }),
      ),
    );
    const { user } = await renderRules();
    const input = screen.getByTestId('rule-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['country,mcc,mnc,startDate\n'], 'rules.csv', { type: 'text/csv' }));
    await user.click(screen.getByTestId('rule-file-check'));
    await screen.findByTestId('rule-file-rejected');
    expect(screen.getByTestId('rule-file-apply')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('rule-file-apply-blocked').textContent).toBe('The file has no valid line to apply.');
  });
});
