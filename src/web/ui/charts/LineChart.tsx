/**
 * A line over time (ECharts): one value per day, week or month, in the page's look and the tenant's accent colour,
 * with values and axis labels formatted by the caller (money in the user's locale, for instance).
 */
import { useEffect } from 'react';
import * as echarts from 'echarts/core';
import { LineChart as Line } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { accent, chartColours, useBodyDark, useChart } from './chartTheme';

echarts.use([Line, GridComponent, TooltipComponent, CanvasRenderer]);

export interface LinePoint {
  /** The period's first day, `YYYY-MM-DD`. */
  date: string;
  value: number;
}

export interface LineChartProps {
  points: readonly LinePoint[];
  /** The chart's accessible name. */
  label: string;
  formatValue: (value: number) => string;
  formatDate: (date: string) => string;
  testId?: string;
}

export default function LineChart({ points, label, formatValue, formatDate, testId }: LineChartProps) {
  const dark = useBodyDark();
  const [element, chart] = useChart();

  useEffect(() => {
    const colours = chartColours(dark);
    const colour = accent();
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
        tooltip: {
          trigger: 'axis',
          ...colours.tooltip,
          formatter: (items: { dataIndex: number }[]) => {
            const point = points[items[0]?.dataIndex ?? 0];
            return point ? `${formatDate(point.date)}<br/><b>${formatValue(point.value)}</b>` : '';
          },
        },
        xAxis: {
          type: 'category',
          data: points.map((p) => p.date),
          axisLabel: { color: colours.text, formatter: formatDate },
          axisLine: { lineStyle: { color: colours.line } },
        },
        yAxis: {
          type: 'value',
          axisLabel: { color: colours.text, formatter: formatValue },
          splitLine: { lineStyle: { color: colours.line } },
        },
        series: [
          {
            type: 'line',
            step: 'end',
            showSymbol: false,
            data: points.map((p) => p.value),
            lineStyle: { color: colour, width: 2 },
            itemStyle: { color: colour },
            areaStyle: { color: colour, opacity: 0.12 },
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, points, dark, formatValue, formatDate]);

  return <div ref={element} className="portal-line-chart" role="img" aria-label={label} data-testid={testId} data-points={points.length} />;
}
