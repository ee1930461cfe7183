import { describe, expect, it } from 'vitest';
import { checkArtwork, readImageInfo } from './artworkInfo';

/** A PNG header: signature, IHDR of the size, and a pHYs chunk of `dpi` (as dots per metre). */
function png(width: number, height: number, dpi?: number): ArrayBuffer {
  const bytes = new Uint8Array(8 + 25 + (dpi ? 21 : 0) + 12);
  const view = new DataView(bytes.buffer);
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].forEach((b, i) => view.setUint8(i, b));
  view.setUint32(8, 13);
  bytes.set(
    [...'IHDR'].map((c) => c.charCodeAt(0)),
    12,
  );
  view.setUint32(16, width);
  view.setUint32(20, height);
  let at = 33;
  if (dpi) {
    view.setUint32(at, 9);
    bytes.set(
      [...'pHYs'].map((c) => c.charCodeAt(0)),
      at + 4,
    );
    view.setUint32(at + 8, Math.round(dpi / 0.0254));
    view.setUint32(at + 12, Math.round(dpi / 0.0254));
    view.setUint8(at + 16, 1);
    at += 21;
  }
  bytes.set(
    [...'IEND'].map((c) => c.charCodeAt(0)),
    at + 4,
  );
  return bytes.buffer;
}

/** A JPEG start: SOI, JFIF APP0 with a density in DPI, and a baseline frame of the size. */
function jpeg(width: number, height: number, dpi: number): ArrayBuffer {
  const bytes = new Uint8Array(2 + 18 + 19);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xffd8);
  view.setUint16(2, 0xffe0);
  view.setUint16(4, 16);
  view.setUint32(6, 0x4a464946);
  view.setUint8(13, 1);
  view.setUint16(14, dpi);
  view.setUint16(16, dpi);
  view.setUint16(20, 0xffc0);
  view.setUint16(22, 17);
  view.setUint16(25, height);
  view.setUint16(27, width);
  return bytes.buffer;
}

describe('artwork checks', () => {
  it('reads PNG and JPEG sizes and resolutions', () => {
    expect(readImageInfo(png(2055, 1323, 600))).toEqual({ widthPx: 2055, heightPx: 1323, dpi: 600 });
    expect(readImageInfo(jpeg(1028, 661, 300))).toEqual({ widthPx: 1028, heightPx: 661, dpi: 300 });
    expect(readImageInfo(new TextEncoder().encode('%PDF-1.4').buffer as ArrayBuffer)).toBeUndefined();
  });
  it('accepts 87 × 56 mm at 600 DPI and warns otherwise', () => {
    expect(checkArtwork(1000, png(2055, 1323, 600))).toMatchObject({ tooLarge: false, warnings: [], widthMm: 87, heightMm: 56 });
    expect(checkArtwork(1000, jpeg(1028, 661, 300)).warnings).toEqual(['dpiLow']);
    expect(checkArtwork(1000, png(2020, 1276, 600)).warnings).toEqual(['size']);
    expect(checkArtwork(1000, png(2055, 1323)).warnings).toEqual(['dpiUnknown']);
    expect(checkArtwork(3.5 * 1024 * 1024, png(2055, 1323, 600)).tooLarge).toBe(true);
  });
});
