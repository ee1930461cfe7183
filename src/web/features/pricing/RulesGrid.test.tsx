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
  id, planId: 2, country: 'DE', mcc: '262', mnc: '01', plmn: '26201', network: 'Telekom', currency: 'EUR', dataRate: 0.0035,
  moCallRate: 0.09, dailyCap: false, discounted: false, startDate: '2026-01-01T00:00:00.000Z', hidden: false, ...over,
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
        totalItemsCount: 3, totalPageCount: 1, currentPage: 0,
      })),
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

async function typeInto(user: Awaited<ReturnType<typeof renderRules>>['user'], target: HTMLElement, text: string) {
  await user.dblClick(target);
  const input = await waitFor(() => target.querySelector('input') as HTMLInputElement);
  await user.clear(input);
  await user.type(input, `${text}{Enter}`);
}

describe('roaming rules grid', () => {
  it('shows the server\'s page with rates in the plan\'s currency', async () => {
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
    expect(screen.getByTestId('rules-errors').textContent).toBe('Row 1, Data rate (per MB): Please enter a rate from 0 to 999999.999999 with at most 6 decimals');
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
    for (const [col, value] of [['country', 'de'], ['mcc', '262'], ['mnc', '02']]) await typeInto(user, cell(1, col), value);
    await waitFor(() => expect(screen.queryByTestId('rules-errors')).toBeNull());

    await user.click(screen.getByTestId('rules-save'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].delete).toEqual([12]);
    expect(sent[0].save).toEqual([expect.objectContaining({ country: 'DE', mcc: '262', mnc: '02', currency: 'EUR' })]);
    expect(sent[0].save[0]).not.toHaveProperty('id');
    await waitFor(() => expect(cell(1, 'mnc').classList.contains('portal-cell-invalid')).toBe(true));
    expect(screen.getByTestId('rules-errors').textContent).toBe('Row 2, MNC: No mobile network of the catalogue has this MCC and MNC');
  });

  it('picks a network of the row\'s country, which fills in MCC, MNC and PLMN', async () => {
    serveRules();
    const { user } = await renderRules();
    await user.click(screen.getByTestId('rules-add'));
    await typeInto(user, cell(2, 'country'), 'de');
    await user.dblClick(cell(2, 'network'));
    const picker = await waitFor(() => cell(2, 'network').querySelector('select') as HTMLSelectElement);
    expect([...picker.options].map((o) => o.text)).toEqual(['Choose a network…', 'Telekom (26201)', 'Vodafone (26202)']);
    await user.selectOptions(picker, '26202');
    await waitFor(() => expect(cell(2, 'network').textContent).toBe('Vodafone'));
    expect([cell(2, 'mcc').textContent, cell(2, 'mnc').textContent, cell(2, 'plmn').textContent]).toEqual(['262', '02', '26202']);
    expect(screen.queryByTestId('rules-errors')).toBeNull();
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

  it('lists every rejected line the check finds, then applies the file', async () => {
    serveRules();
    const confirms: (string | null)[] = [];
    api.server.use(
      http.post('/portal/pricing-plans/local/2/by-csv', ({ request }) => {
        const confirm = new URL(request.url).searchParams.get('confirm');
        confirms.push(confirm);
        const rejected = [{ line: 3, values: {}, fields: [fieldError('mnc', 'pattern', 'validation.mnc.invalid'), fieldError('dataRate', 'type', 'validation.rate.invalid')] }];
        return HttpResponse.json({ total: 3, valid: 2, rejected, applied: confirm ? 2 : 0 });
      }),
    );
    const { user } = await renderRules();
    const input = screen.getByTestId('rule-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['country,mcc,mnc,startDate\n'], 'rules.csv', { type: 'text/csv' }));
    await user.click(screen.getByTestId('rule-file-check'));
    const rejected = await screen.findByTestId('rule-file-rejected');
    expect(within(rejected).getAllByRole('row').map((r) => r.textContent)).toEqual([
      'LineReasons',
      '3MNC: MNC must be 2 or 3 digitsData rate (per MB): Please enter a rate from 0 to 999999.999999 with at most 6 decimals',
    ]);
    expect(screen.getByTestId('rule-file-report').textContent).toContain('3 lines: 2 valid, 1 rejected. Nothing has been written yet.');
    await user.click(screen.getByTestId('rule-file-apply'));
    await waitFor(() => expect(screen.getByTestId('rule-file-report').textContent).toContain('2 rules applied'));
    expect(confirms).toEqual([null, 'true']);
  });
});
