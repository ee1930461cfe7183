/**
 * Horizontal bars (ECharts), the largest first: one bar per named item, in the page's look and the tenant's accent
 * colour, mirrored for right-to-left languages (names on the right, bars growing leftwards).
 */
import { useEffect } from 'react';
import * as echarts from 'echarts/core';
import { BarChart as Bar } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import { accent, chartColours, useBodyDark, useChart } from './chartTheme';

echarts.use([Bar, GridComponent, TooltipComponent, CanvasRenderer]);

export interface Bar {
  name: string;
  value: number;
}

export interface BarChartProps {
  bars: readonly Bar[];
  /** The chart's accessible name. */
  label: string;
  formatValue: (value: number) => string;
  rtl?: boolean;
  testId?: string;
  onSelect?: (index: number) => void;
}

export default function BarChart({ bars, label, formatValue, rtl = false, testId, onSelect }: BarChartProps) {
  const dark = useBodyDark();
  const [element, chart] = useChart();

  useEffect(() => {
    const colours = chartColours(dark);
    const colour = accent();
    const instance = chart.current;
    instance?.setOption(
      {
        backgroundColor: 'transparent',
        // Drawn at once: a switch of language or theme redraws the whole chart.
        animation: false,
        grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
        tooltip: {
          trigger: 'item',
          ...colours.tooltip,
          formatter: (item: { dataIndex: number }) => {
            const bar = bars[item.dataIndex];
            return bar ? `${bar.name}<br/><b>${formatValue(bar.value)}</b>` : '';
          },
        },
        xAxis: {
          type: 'value',
          inverse: rtl,
          axisLabel: { color: colours.text, formatter: formatValue },
          splitLine: { lineStyle: { color: colours.line } },
        },
        yAxis: {
          type: 'category',
          inverse: true,
          position: rtl ? 'right' : 'left',
          data: bars.map((b) => b.name),
          axisLabel: { color: colours.text, width: 160, overflow: 'truncate' },
          axisLine: { lineStyle: { color: colours.line } },
        },
        series: [{ type: 'bar', data: bars.map((b) => b.value), itemStyle: { color: colour, borderRadius: 2 }, barMaxWidth: 18 }],
      },
      { notMerge: true },
    );
    if (!instance || !onSelect) return;
    const select = (e: { dataIndex: number }) => onSelect(e.dataIndex);
    instance.on('click', select);
    return () => {
      instance.off('click', select);
    };
  }, [chart, bars, dark, formatValue, rtl, onSelect]);

  return <div ref={element} className="portal-bar-chart" role="img" aria-label={label} data-testid={testId} data-bars={bars.length} />;
}
