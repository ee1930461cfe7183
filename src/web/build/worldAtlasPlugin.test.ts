import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { simplifyArc, simplifyTopology } from './worldAtlasPlugin';

type Countries = Topology<{ countries: GeometryCollection }>;
const atlas = JSON.parse(readFileSync('node_modules/world-atlas/countries-50m.json', 'utf8')) as Countries;
const points = (t: { arcs: unknown[][] }) => t.arcs.reduce((n, arc) => n + arc.length, 0);

describe('the world map shapes simplified at build time', () => {
  it('keeps an arc’s ends and drops the points within the tolerance of the line between them', () => {
    const arc = [
      [0, 0],
      [1, 0.01],
      [2, -0.01],
      [3, 0],
    ];
    expect(simplifyArc(arc, 0.1)).toEqual([
      [0, 0],
      [1, 0.01],
      [3, 0],
    ]);
    expect(simplifyArc([...arc.slice(0, 3), [2.5, 5], [3, 0]], 0.1)).toContainEqual([2.5, 5]);
  });

  it('keeps a small island a triangle at least', () => {
    const island = [
      [0, 0],
      [0.01, 0],
      [0.02, 0.01],
      [0.01, 0.02],
      [0, 0.01],
      [0, 0],
    ];
    expect(simplifyArc(island, 1).length).toBeGreaterThanOrEqual(4);
  });

  it('keeps every country with a fraction of the points, and only the countries', () => {
    const simplified = simplifyTopology(atlas as never) as unknown as Countries;
    expect(Object.keys(simplified.objects)).toEqual(['countries']);
    expect(points(simplified)).toBeLessThan(points(atlas) / 3);
    const before = feature(atlas, atlas.objects.countries).features;
    const after = feature(simplified, simplified.objects.countries).features;
    expect(after.map((f) => f.id)).toEqual(before.map((f) => f.id));
    // Singapore (702) and Malta (470) are still drawn: polygons of at least a triangle each.
    for (const id of ['702', '470']) {
      const shape = after.find((f) => f.id === id)!.geometry;
      const rings = shape.type === 'Polygon' ? shape.coordinates : shape.type === 'MultiPolygon' ? shape.coordinates.flat() : [];
      expect(rings.length, id).toBeGreaterThan(0);
      for (const ring of rings) expect(ring.length, id).toBeGreaterThanOrEqual(4);
    }
  });
});
