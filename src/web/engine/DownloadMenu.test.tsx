// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@web/app/AppRoutes';
import { renderWithProviders, signedIn } from '@web/test/renderWithProviders';
import { setupMockApi } from '@web/test/mockApi';
import { mockToken } from '../../../mocks/token';

const api = setupMockApi();

/** The files the page hands to the browser's save mechanism: their names and contents. */
function savedFiles() {
  const saved: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}

afterEach(() => vi.restoreAllMocks());

describe('the list download menu', () => {
  it('offers CSV or Excel and downloads the list in the chosen format, with its search', async () => {
    const saved = savedFiles();
    const { user } = renderWithProviders(<AppRoutes />, { route: '/accounts?searchBy=name&searchKey=alpha', preloadedState: signedIn(mockToken('nora')) });
    await user.click(await screen.findByTestId('list-download'));
    expect((await screen.findByTestId('list-download-csv')).textContent).toBe('CSV (.csv)');
    await user.click(screen.getByTestId('list-download-xlsx'));

    await waitFor(() => expect(saved).toHaveLength(1));
    const [request] = api.requests('/portal/accounts/list/download', 'POST');
    expect(request.url.searchParams.get('format')).toBe('xlsx');
    expect(request.url.searchParams.get('include_inventory')).toBe('true');
    expect(request.body).toMatchObject({ searchBy: 'name', searchKey: 'alpha' });
    expect(saved[0].name).toBe('account.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await saved[0].blob.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual(expect.arrayContaining(['accountId', 'name', 'usageCredit']));
    expect(sheet.rowCount).toBe(2);

    await user.click(screen.getByTestId('list-download'));
    await user.click(await screen.findByTestId('list-download-csv'));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(api.requests('/portal/accounts/list/download', 'POST')[1].url.searchParams.get('format')).toBe('csv');
    expect(saved[1].name).toBe('account.csv');
    expect(await saved[1].blob.text()).toContain('Alpha Logistics');
  });
});
