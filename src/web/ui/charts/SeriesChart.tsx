/**
 * A line or bars over labelled categories (ECharts): a series over time, or totals by key. In the page's look (light
 * or dark), the tenant's accent colour, mirrored in a right-to-left page, values and labels formatted by the caller.
 */
import { useEffect } from 'react';
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { accent, chartColours, useBodyDark, useChart, useRightToLeft } from './chartTheme';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface SeriesPoint {
  /** The category's label as the axis shows it. */
  label: string;
  value: number;
}

export interface SeriesChartProps {
  points: readonly SeriesPoint[];
  kind: 'line' | 'bar';
  /** Bars laid along the vertical axis (totals by key, the largest on top). */
  horizontal?: boolean;
  /** The chart's accessible name. */
  label: string;
  formatValue: (value: number) => string;
  testId?: string;
}

export default function SeriesChart({ points, kind, horizontal = false, label, formatValue, testId }: SeriesChartProps) {
  const dark = useBodyDark();
  const rtl = useRightToLeft();
  const [element, chart] = useChart();

  useEffect(() => {
    const colours = chartColours(dark);
    const colour = accent();
    const labels = points.map((p) => p.label);
    const category = {
      type: 'category',
      data: horizontal ? [...labels].reverse() : labels,
      // The first category at the reader's start: on the right in a right-to-left page.
      inverse: !horizontal && rtl,
      axisLabel: { color: colours.text, hideOverlap: true, width: horizontal ? 110 : undefined, overflow: 'truncate' },
      axisLine: { lineStyle: { color: colours.line } },
    };
    const value = {
      type: 'value',
      inverse: horizontal && rtl,
      position: !horizontal && rtl ? 'right' : undefined,
      axisLabel: { color: colours.text, formatter: formatValue },
      splitLine: { lineStyle: { color: colours.line } },
    };
    const data = points.map((p) => p.value);
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
        tooltip: {
          trigger: 'axis',
          ...colours.tooltip,
          valueFormatter: (v: number) => formatValue(v),
        },
        xAxis: horizontal ? value : category,
        yAxis: horizontal ? { ...category, position: rtl ? 'right' : 'left' } : value,
        series: [
          kind === 'line'
            ? {
                type: 'line',
                showSymbol: points.length < 40,
                data,
                lineStyle: { color: colour, width: 2 },
                itemStyle: { color: colour },
                areaStyle: { color: colour, opacity: 0.12 },
              }
            : { type: 'bar', data: horizontal ? [...data].reverse() : data, itemStyle: { color: colour, borderRadius: 2 }, barMaxWidth: 28 },
        ],
      },
      { notMerge: true },
    );
  }, [chart, points, kind, horizontal, dark, rtl, formatValue]);

  return <div ref={element} className="portal-series-chart" role="img" aria-label={label} data-testid={testId} data-points={points.length} />;
}
