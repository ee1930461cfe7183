/** What every chart of the portal follows: the page's light or dark look, and the tenant's accent colour. */
import { useEffect, useRef, useState } from 'react';
import { Classes } from '@blueprintjs/core';
import * as echarts from 'echarts/core';

/**
 * An ECharts instance on the element the first ref is given to, drawn on canvas and resized with its element, disposed
 * with the component; set options through the second ref once mounted.
 */
export function useChart() {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    // No chart where the page gets no canvas to draw on: the chart's table view still holds its figures.
    if (!canDraw()) return;
    const instance = echarts.init(element.current!, undefined, { renderer: 'canvas' });
    chart.current = instance;
    // The observer reports the element's size once as it starts watching: a resize to the same size would draw the
    // whole chart a second time (ECharts redraws on every resize), so only a changed size redraws.
    const resize = new ResizeObserver(([entry]) => {
      const { width, height } = entry.contentRect;
      if (Math.round(width) !== instance.getWidth() || Math.round(height) !== instance.getHeight()) instance.resize();
    });
    resize.observe(element.current!);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  return [element, chart] as const;
}

let drawable: boolean | undefined;
/**
 * Whether the page can draw on a canvas. A browser that blocks canvases (or a DOM without them) gives no drawing
 * context, and ECharts would then fail as it draws and again as it is disposed.
 */
export function canDraw(): boolean {
  drawable ??= document.createElement('canvas').getContext('2d') !== null;
  return drawable;
}

/** Whether the page is dark: Blueprint's class on the body, watched so a chart follows the switch. */
export function useBodyDark(): boolean {
  const [dark, setDark] = useState(() => document.body.classList.contains(Classes.DARK));
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(document.body.classList.contains(Classes.DARK)));
    observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/** The tenant's accent colour (the `--portal-accent` the shell sets), for the data a chart draws. */
export function accent(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--portal-accent').trim() || '#c99a2e';
}

/** Text, lines and tooltips in the page's look. */
export function chartColours(dark: boolean) {
  return {
    text: dark ? '#d3d8de' : '#404854',
    line: dark ? '#5f6b7c' : '#d3d8de',
    tooltip: { backgroundColor: dark ? '#2f343c' : '#ffffff', borderColor: dark ? '#5f6b7c' : '#d3d8de', textStyle: { color: dark ? '#f6f7f9' : '#1c2127' } },
  };
}

/** Whether the page reads right to left (Hebrew): the root's `dir`, watched so a chart mirrors with the language. */
export function useRightToLeft(): boolean {
  const [rtl, setRtl] = useState(() => document.documentElement.dir === 'rtl');
  useEffect(() => {
    const observer = new MutationObserver(() => setRtl(document.documentElement.dir === 'rtl'));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['dir'] });
    return () => observer.disconnect();
  }, []);
  return rtl;
}
