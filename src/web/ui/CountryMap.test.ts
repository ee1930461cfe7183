import { describe, expect, it } from 'vitest';
import { splitAtAntimeridian } from './CountryMap';

describe('a ring crossing the antimeridian', () => {
  // An island from 170°E to 170°W between 60° and 70° N, with a long coast to the west (down to 42° N) that starts the ring.
  const ring = [
    [150, 42],
    [170, 60],
    [179, 61],
    [-179, 62],
    [-170, 63],
    [-170, 68],
    [-179, 69],
    [179, 70],
    [170, 70],
    [150, 42],
  ];

  it('is drawn as two halves, each held at the 180th meridian only where the ring crosses it', () => {
    const [east, west] = splitAtAntimeridian(ring);
    // The eastern half: the western points as they are, the crossing's two ends at 180°.
    expect(east).toEqual([
      [150, 42],
      [170, 60],
      [179, 61],
      [180, 62],
      [180, 69],
      [179, 70],
      [170, 70],
      [150, 42],
    ]);
    // The western half: no line along the meridian down to the coast far west (42° N), only from 61° to 70°.
    expect(west).toEqual([
      [-179, 62],
      [-170, 63],
      [-170, 68],
      [-179, 69],
      [-180, 70],
      [-180, 61],
      [-179, 62],
    ]);
  });

  it('is left alone when it does not cross', () => {
    const small = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 10],
    ];
    expect(splitAtAntimeridian(small)).toEqual([small]);
  });
});
