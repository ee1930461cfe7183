/**
 * The world map's country shapes (world-atlas's 1:50m TopoJSON) made lighter at build time: the `land` outline the
 * map does not draw is left out, and every arc is simplified (Douglas-Peucker, `TOLERANCE_DEGREES`) before the
 * JSON becomes a module. Shapes share their arcs, so neighbours still meet; each arc keeps its ends and, however
 * small, its point farthest from them, so every island and small state (Singapore, Malta) stays a polygon. The map
 * parses and draws a quarter of the points (19,600 of 80,600), and its module is a third of the size.
 */
import type { Plugin } from 'vite';

/** A fifth of a pixel of the dashboard's map (half a degree a pixel in a window 1,400 wide), a pixel zoomed in four times. */
export const TOLERANCE_DEGREES = 0.1;

const ATLAS = /world-atlas[\\/]countries-50m\.json$/;

interface Topology {
  type: 'Topology';
  transform: { scale: [number, number]; translate: [number, number] };
  objects: Record<string, unknown>;
  arcs: [number, number][][];
}

/** Squared distance from p to the segment a–b. */
function segmentDistance2(p: number[], a: number[], b: number[]): number {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2));
  const x = a[0] + t * dx - p[0];
  const y = a[1] + t * dy - p[1];
  return x * x + y * y;
}

/** The indexes of the points Douglas-Peucker keeps between `first` and `last` (ends excluded). */
function keep(points: number[][], first: number, last: number, tolerance2: number, kept: Set<number>, force: boolean) {
  let farthest = -1;
  let best = -1;
  for (let i = first + 1; i < last; i++) {
    const d = segmentDistance2(points[i], points[first], points[last]);
    if (d > best) {
      best = d;
      farthest = i;
    }
  }
  if (farthest < 0 || (best <= tolerance2 && !force)) return;
  kept.add(farthest);
  keep(points, first, farthest, tolerance2, kept, false);
  keep(points, farthest, last, tolerance2, kept, false);
}

/** One arc (absolute positions) simplified: its ends, its farthest point, and what the tolerance asks for. */
export function simplifyArc(points: number[][], tolerance: number): number[][] {
  if (points.length <= 3) return points;
  const last = points.length - 1;
  const kept = new Set([0, last]);
  const closed = points[0][0] === points[last][0] && points[0][1] === points[last][1];
  if (closed) {
    // A ring on its own (an island): split at the point farthest from its start, so it keeps a triangle at least.
    let far = 1;
    let best = -1;
    for (let i = 1; i < last; i++) {
      const d = (points[i][0] - points[0][0]) ** 2 + (points[i][1] - points[0][1]) ** 2;
      if (d > best) [best, far] = [d, i];
    }
    kept.add(far);
    keep(points, 0, far, tolerance * tolerance, kept, true);
    keep(points, far, last, tolerance * tolerance, kept, true);
  } else keep(points, 0, last, tolerance * tolerance, kept, true);
  return [...kept].sort((a, b) => a - b).map((i) => points[i]);
}

/** The countries of a quantized topology, their arcs simplified, still quantized and delta-encoded. */
export function simplifyTopology(topology: Topology, tolerance = TOLERANCE_DEGREES): Topology {
  const { scale, translate } = topology.transform;
  const arcs = topology.arcs.map((arc) => {
    // Decode the deltas to absolute grid positions, simplify in degrees, encode the kept ones again.
    let x = 0;
    let y = 0;
    const grid = arc.map(([dx, dy]) => [(x += dx), (y += dy)]);
    const degrees = grid.map(([gx, gy]) => [gx * scale[0] + translate[0], gy * scale[1] + translate[1]]);
    const index = new Map(degrees.map((d, i) => [d, i]));
    const simplified = simplifyArc(degrees, tolerance).map((d) => grid[index.get(d)!]);
    let px = 0;
    let py = 0;
    return simplified.map(([gx, gy]) => {
      const delta: [number, number] = [gx - px, gy - py];
      [px, py] = [gx, gy];
      return delta;
    });
  });
  return { type: 'Topology', transform: topology.transform, objects: { countries: topology.objects.countries }, arcs };
}

export function worldAtlasPlugin(): Plugin {
  return {
    name: 'portal:world-atlas',
    enforce: 'pre',
    transform(code, id) {
      if (!ATLAS.test(id.split('?')[0])) return null;
      return { code: JSON.stringify(simplifyTopology(JSON.parse(code) as Topology)), map: null };
    },
  };
}
