// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { Pager, pagerCount } from './Pager';

afterEach(() => cleanup());

const next = () => screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement;

describe('pager', () => {
  it('shows an exact total as it is, and an estimated one as approximate', () => {
    const { rerender } = renderWithProviders(<Pager page={1} pages={20000} total={1000000} onPage={vi.fn()} />);
    expect(screen.getByTestId('list-total').textContent).toBe('1,000,000 items');
    rerender(<Pager page={1} pages={20000} total={1000000} estimate onPage={vi.fn()} />);
    expect(screen.getByTestId('list-total').textContent).toBe('about 1,000,000 items');
  });

  it('says the page count of an estimate is one, and closes an exact list at its last page', () => {
    const { rerender } = renderWithProviders(<Pager page={3} pages={201} total={10050} estimate rows={50} size={50} onPage={vi.fn()} />);
    expect(screen.getByTestId('list-page').textContent).toBe('Page 3 of about 201');
    rerender(<Pager page={201} pages={201} total={10050} onPage={vi.fn()} />);
    expect(screen.getByTestId('list-page').textContent).toBe('Page 201 of 201');
    expect(next().disabled).toBe(true);
  });

  it('keeps Next open past an estimate that fell short, until a page comes back short', () => {
    const onPage = vi.fn();
    const { rerender } = renderWithProviders(<Pager page={201} pages={201} total={10050} estimate rows={50} size={50} onPage={onPage} />);
    expect(next().disabled).toBe(false);
    rerender(<Pager page={210} pages={201} total={10050} estimate rows={50} size={50} onPage={onPage} />);
    expect(screen.getByTestId('list-page').textContent).toBe('Page 210 of about 211');
    expect(screen.getByTestId('list-total').textContent).toBe('about 10,500 items');
    next().click();
    expect(onPage).toHaveBeenCalledWith(211);
    // The short page is the last: every row is known, so the count is exact.
    rerender(<Pager page={211} pages={201} total={10050} estimate rows={23} size={50} onPage={onPage} />);
    expect(screen.getByTestId('list-page').textContent).toBe('Page 211 of 211');
    expect(screen.getByTestId('list-total').textContent).toBe('10,523 items');
    expect(next().disabled).toBe(true);
  });
});

describe('pagerCount', () => {
  it('ends an overestimated list at its first short page', () => {
    expect(pagerCount({ page: 150, pages: 201, total: 10050, estimate: true, rows: 10, size: 50 })).toEqual({
      pages: 150,
      total: 7460,
      estimate: false,
      hasNext: false,
    });
    expect(pagerCount({ page: 2, pages: 201, total: 10050, estimate: true, rows: 50, size: 50 })).toEqual({
      pages: 201,
      total: 10050,
      estimate: true,
      hasNext: true,
    });
  });
});
