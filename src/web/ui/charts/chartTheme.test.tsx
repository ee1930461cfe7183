// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import * as echarts from 'echarts/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { canDraw } from './chartTheme';
import SeriesChart from './SeriesChart';

describe('a chart where the page gets no canvas to draw on', () => {
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('draws nothing and fails neither as it is drawn nor as it goes', () => {
    // This DOM, as a browser that blocks canvases, gives no drawing context.
    expect(document.createElement('canvas').getContext('2d')).toBeNull();
    expect(canDraw()).toBe(false);
    const errors = vi.spyOn(console, 'error');
    const reported: unknown[] = [];
    const report = (event: ErrorEvent) => reported.push(event.error);
    window.addEventListener('error', report);
    try {
      const { container, unmount } = render(<SeriesChart points={[{ label: 'Mon', value: 3 }]} kind="bar" label="Sales" formatValue={String} testId="chart" />);
      const element = container.querySelector('[data-testid="chart"]') as HTMLElement;
      expect(echarts.getInstanceByDom(element)).toBeUndefined();
      expect(() => unmount()).not.toThrow();
    } finally {
      window.removeEventListener('error', report);
    }
    expect(reported).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });
});
