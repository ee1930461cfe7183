// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@web/test/renderWithProviders';
import { Pager } from './Pager';

describe('pager', () => {
  it('shows an exact total as it is, and an estimated one as approximate', () => {
    const { rerender } = renderWithProviders(<Pager page={1} pages={20000} total={1000000} onPage={vi.fn()} />);
    expect(screen.getByTestId('list-total').textContent).toBe('1,000,000 items');
    rerender(<Pager page={1} pages={20000} total={1000000} estimate onPage={vi.fn()} />);
    expect(screen.getByTestId('list-total').textContent).toBe('about 1,000,000 items');
  });
});
