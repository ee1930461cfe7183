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

const MAP = 'portal-world';
let registered = false;

type Ring = number[][];

/**
 * A ring that crosses the antimeridian (Russia's far east, Fiji) would be drawn across the whole map in plain
 * longitude and latitude: split it into its eastern and western halves, each held at the 180th meridian.
 */
function splitAtAntimeridian(ring: Ring): Ring[] {
  const xs = ring.map(([x]) => x);
  if (Math.max(...xs) - Math.min(...xs) <= 180) return [ring];
  return [ring.map(([x, y]) => [x < 0 ? 180 : x, y]), ring.map(([x, y]) => [x > 0 ? -180 : x, y])];
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

/** The shapes keyed by alpha-2 code (world-atlas names them by ISO numeric code). */
function registerWorld() {
  if (registered) return;
  const topology = atlas as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const shapes = feature(topology, topology.objects.countries);
  for (const f of shapes.features) {
    f.properties = { name: countries.numericToAlpha2(String(f.id)) ?? `#${String(f.id)}` };
    splitPolygons(f.geometry);
  }
  echarts.registerMap(MAP, shapes as never);
  registered = true;
}

export default function CountryMap({ codes }: { codes: readonly string[] }) {
  const intl = useIntl();
  const dark = useBodyDark();
  const [element, chart] = useChart();

  useEffect(() => {
    registerWorld();
    const names = countryNames(intl.locale);
    const fill = accent();
    chart.current?.setOption(
      {
        backgroundColor: 'transparent',
        tooltip: {
          trigger: 'item',
          formatter: (p: { name: string }) => names[p.name] ?? p.name,
          ...chartColours(dark).tooltip,
        },
        series: [
          {
            type: 'map',
            map: MAP,
            roam: true,
            selectedMode: false,
            itemStyle: { areaColor: dark ? '#383e47' : '#e5e8eb', borderColor: dark ? '#5f6b7c' : '#abb3bf', borderWidth: 0.5 },
            emphasis: { label: { show: false }, itemStyle: { areaColor: dark ? '#5f6b7c' : '#c5cbd3' } },
            data: codes.map((code) => ({ name: code, itemStyle: { areaColor: fill }, emphasis: { itemStyle: { areaColor: fill } } })),
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, codes, dark, intl.locale]);

  return (
    <div
      ref={element}
      className="country-map"
      role="img"
      aria-label={intl.formatMessage({ id: 'zones.map.title' })}
      data-testid="country-map"
      data-countries={codes.join(',')}
    />
  );
}
