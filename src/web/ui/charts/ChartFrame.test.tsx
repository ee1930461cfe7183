// @vitest-environment happy-dom
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { ChartFrame } from './ChartFrame';
import { csvText } from './csv';

const table = {
  columns: ['Day', 'Sales'],
  rows: [
    { values: ['2026-11-01', 12.5], shown: ['1 Nov', '$12.50'] },
    { values: ['2026-11-02', -3], shown: ['2 Nov', '-$3.00'] },
  ],
};

describe('chart frame', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('shows a skeleton while loading, and no table', () => {
    renderWithProviders(<ChartFrame title="Sales" name="Sales" loading table={table} testId="f" />);
    const frame = screen.getByTestId('f');
    expect(frame.dataset.state).toBe('loading');
    expect(frame.querySelector('.bp6-skeleton')).not.toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says why it is empty: no data in the range, or no privilege', () => {
    const { rerender } = renderWithProviders(<ChartFrame title="Sales" name="Sales" empty="noData" table={{ ...table, rows: [] }} testId="f" />);
    expect(screen.getByText('No data in this range')).toBeTruthy();
    expect((screen.getByTestId('f-csv') as HTMLButtonElement).disabled).toBe(true);
    rerender(<ChartFrame title="Sales" name="Sales" empty="noPrivilege" testId="f" />);
    expect(screen.getByText('Not available to you')).toBeTruthy();
    expect(screen.getByTestId('f').dataset.state).toBe('empty-noPrivilege');
  });

  it('keeps a table for screen readers, shows it on demand in place of the chart, and refreshes', () => {
    const refresh = vi.fn();
    renderWithProviders(
      <ChartFrame title="Sales" name="Sales" table={table} onRefresh={refresh} testId="f">
        <div data-testid="chart" />
      </ChartFrame>,
    );
    // Hidden visually, there for assistive technology.
    const hidden = screen.getByRole('table');
    expect(hidden.closest('.portal-visually-hidden')).not.toBeNull();
    expect(screen.getByText('$12.50')).toBeTruthy();
    expect(screen.getByTestId('chart')).toBeTruthy();
    fireEvent.click(screen.getByTestId('f-table-toggle'));
    expect(screen.queryByTestId('chart')).toBeNull();
    expect(screen.getByRole('table').closest('.portal-visually-hidden')).toBeNull();
    expect(screen.getByTestId('f-table-toggle').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByTestId('f-refresh'));
    expect(refresh).toHaveBeenCalledOnce();
  });

  it('downloads the raw values as CSV', async () => {
    const created: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => (created.push(b as Blob), 'blob:x'));
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderWithProviders(<ChartFrame title="Sales" name="Sales / day" table={table} testId="f" />);
    fireEvent.click(screen.getByTestId('f-csv'));
    expect(click).toHaveBeenCalledOnce();
    const anchor = click.mock.contexts[0] as HTMLAnchorElement;
    expect(anchor.download).toBe('Sales - day.csv');
    expect((await created[0].text()).replace(/^\uFEFF/, '')).toBe('Day,Sales\r\n2026-11-01,12.5\r\n2026-11-02,-3\r\n');
  });

  it('quotes cells a spreadsheet would misread', () => {
    expect(
      csvText(
        ['a', 'b'],
        [
          ['x,y', '=SUM(A1)'],
          ['say "hi"', null],
        ],
      ),
    ).toBe('a,b\r\n"x,y","=SUM(A1)"\r\n"say ""hi""",\r\n');
  });
});
