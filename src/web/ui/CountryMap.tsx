/**
 * A world map with the chosen countries filled in: ECharts over world-atlas's 1:50m country shapes (241
 * countries, so small states such as Singapore or Malta show too). Loaded lazily with its data.
 */
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import * as echarts from 'echarts/core';
import { MapChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { Geometry } from 'geojson';
import type { GeometryCollection, Topology } from 'topojson-specification';
import atlas from 'world-atlas/countries-50m.json';
import { countryNames } from '@shared/countries';
import { accent, chartColours, useBodyDark, useChart } from './charts/chartTheme';

echarts.use([MapChart, TooltipComponent, CanvasRenderer]);

/** The world without Antarctica (no subscriber is ever there, and leaving it out gives the rest a third more room). */
const MAP = 'portal-world';
/** The world with Antarctica, for a figure or a zone that names it. */
const MAP_WHOLE = 'portal-world-whole';
const ANTARCTICA = 'AQ';
let registered = false;

type Ring = number[][];

/**
 * A ring with the points of the other side held at `edge` (the 180th meridian, east or west): a run of such points is
 * only the meridian between where the ring leaves it and comes back, so only the run's two ends are kept (the rest
 * would draw the other side's whole outline as a line along the map's edge).
 */
function heldAt(ring: Ring, edge: number, other: (x: number) => boolean): Ring {
  // The ring without its closing point, started at a point of this side, so that no run of held points wraps round.
  const open = ring.slice(0, -1);
  const start = open.findIndex(([x]) => !other(x));
  const points = [...open.slice(start), ...open.slice(0, start)];
  const held = points.map(([x]) => other(x));
  const last = points.length - 1;
  const kept = points
    .filter((_, i) => !held[i] || !held[i === 0 ? last : i - 1] || !held[i === last ? 0 : i + 1])
    .map(([x, y]) => (other(x) ? [edge, y] : [x, y]));
  return [...kept, kept[0]];
}

/**
 * A ring that crosses the antimeridian (Russia's far east, Fiji) would be drawn across the whole map in plain
 * longitude and latitude: split it into its eastern and western halves, each held at the 180th meridian.
 */
export function splitAtAntimeridian(ring: Ring): Ring[] {
  const xs = ring.map(([x]) => x);
  if (Math.max(...xs) - Math.min(...xs) <= 180) return [ring];
  return [heldAt(ring, 180, (x) => x < 0), heldAt(ring, -180, (x) => x > 0)];
}

function splitPolygons(geometry: Geometry | null): void {
  if (geometry?.type === 'Polygon') {
    const parts = geometry.coordinates.flatMap(splitAtAntimeridian);
    if (parts.length > geometry.coordinates.length) Object.assign(geometry, { type: 'MultiPolygon', coordinates: parts.map((ring) => [ring]) });
  } else if (geometry?.type === 'MultiPolygon') {
    geometry.coordinates = geometry.coordinates.flatMap((polygon) => {
      const parts = polygon.flatMap(splitAtAntimeridian);
      return parts.length > polygon.length ? parts.map((ring) => [ring]) : [polygon];
    });
  }
}

/** The shapes keyed by alpha-2 code (world-atlas names them by ISO numeric code), with and without Antarctica. */
function registerWorld() {
  if (registered) return;
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const shapes = feature(topology, topology.objects.countries);
  for (const f of shapes.features) {
    f.properties = { name: countries.numericToAlpha2(String(f.id)) ?? `#${String(f.id)}` };
    splitPolygons(f.geometry);
  }
  echarts.registerMap(MAP_WHOLE, shapes as never);
  echarts.registerMap(MAP, { ...shapes, features: shapes.features.filter((f) => f.properties.name !== ANTARCTICA) } as never);
  registered = true;
}

export interface CountryMapProps {
  /** Countries filled in the accent colour (a zone's countries). */
  codes?: readonly string[];
  /** A figure per country: the countries are shaded by it (the largest fullest) and the tooltip shows it. */
  values?: Readonly<Record<string, number>>;
  /** How a figure reads in the tooltip. */
  format?: (value: number) => string;
  /** Called with the country clicked; makes the countries with a figure clickable. */
  onSelect?: (code: string) => void;
  /** The country chosen: outlined. */
  selected?: string;
  /** The map's accessible name; the zones' title otherwise. */
  label?: string;
}

/** Hex colour with an opacity from 0 to 1. */
function withAlpha(hex: string, alpha: number): string {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) return hex;
  const n = parseInt(m[1], 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha.toFixed(3)})`;
}

export default function CountryMap({ codes = [], values, format, onSelect, selected, label }: CountryMapProps) {
  const intl = useIntl();
  const dark = useBodyDark();
  const [element, chart] = useChart();

  useEffect(() => {
    registerWorld();
    const names = countryNames(intl.locale);
    const fill = accent();
    const figures = Object.entries(values ?? {}).filter(([, v]) => v > 0);
    // Shaded on a log scale so a country with little traffic still shows beside one with much.
    const top = Math.log1p(Math.max(0, ...figures.map(([, v]) => v)));
    const shade = (v: number) => withAlpha(fill, top > 0 ? 0.25 + 0.75 * (Math.log1p(v) / top) : 1);
    const outline = (code: string) => (code === selected ? { borderColor: dark ? '#f6f7f9' : '#1c2127', borderWidth: 2 } : {});
    const data = values
      ? figures.map(([code, v]) => ({
          name: code,
          value: v,
          itemStyle: { areaColor: shade(v), ...outline(code) },
          emphasis: { itemStyle: { areaColor: fill } },
        }))
      : codes.map((code) => ({ name: code, itemStyle: { areaColor: fill }, emphasis: { itemStyle: { areaColor: fill } } }));
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: {
          trigger: 'item',
          formatter: (p: { name: string; value?: number }) => {
            const name = names[p.name] ?? p.name;
            return values && typeof p.value === 'number' && !Number.isNaN(p.value) ? `${name}: ${format ? format(p.value) : p.value}` : name;
          },
          ...chartColours(dark).tooltip,
        },
        series: [
          {
            type: 'map',
            map: codes.includes(ANTARCTICA) || (values?.[ANTARCTICA] ?? 0) > 0 ? MAP_WHOLE : MAP,
            roam: true,
            selectedMode: false,
            itemStyle: { areaColor: dark ? '#383e47' : '#e5e8eb', borderColor: dark ? '#5f6b7c' : '#abb3bf', borderWidth: 0.5 },
            emphasis: { label: { show: false }, itemStyle: { areaColor: dark ? '#5f6b7c' : '#c5cbd3' } },
            data,
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, codes, values, format, selected, dark, intl.locale]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onSelect) return;
    const click = (p: { name?: string }) => {
      if (p.name && /^[A-Z]{2}$/.test(p.name)) onSelect(p.name);
    };
    instance.on('click', click);
    return () => {
      instance.off('click', click);
    };
  }, [chart, onSelect]);

  const shown = values ? Object.keys(values).filter((c) => values[c] > 0) : codes;
  return (
    <div
      ref={element}
      className="country-map"
      role="img"
      aria-label={label ?? intl.formatMessage({ id: 'zones.map.title' })}
      data-testid="country-map"
      data-countries={shown.join(',')}
      data-selected={selected ?? ''}
    />
  );
}
