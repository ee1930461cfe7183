/**
 * What the browser can tell of an artwork before it is sent: the file's size, and for PNG and JPEG images their
 * pixel size and resolution (PNG's pHYs chunk, JPEG's JFIF density), from which the printed size follows. The
 * card wants 87 × 56 mm (at least 87 × 55.5) at 600 DPI or more; anything else is a warning, not a refusal.
 */
import { ARTWORK_MAX_BYTES, ARTWORK_MIN_DPI, ARTWORK_MM } from '@shared/orders';

export interface ImageInfo {
  widthPx: number;
  heightPx: number;
  /** Dots per inch, when the file says. */
  dpi?: number;
}

const MM_PER_INCH = 25.4;

function pngInfo(view: DataView): ImageInfo | undefined {
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  let dpi: number | undefined;
  for (let at = 8; at + 12 <= view.byteLength;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    if (type === 'pHYs' && at + 17 <= view.byteLength && view.getUint8(at + 16) === 1) dpi = Math.round(view.getUint32(at + 8) * 0.0254);
    if (type === 'IDAT' || type === 'IEND') break;
    at += 12 + length;
  }
  return { widthPx: width, heightPx: height, dpi };
}

function jpegInfo(view: DataView): ImageInfo | undefined {
  let dpi: number | undefined;
  for (let at = 2; at + 4 <= view.byteLength;) {
    if (view.getUint8(at) !== 0xff) return undefined;
    const marker = view.getUint8(at + 1);
    const length = view.getUint16(at + 2);
    // APP0 "JFIF": units (1 = dots per inch, 2 = per cm) and the x density.
    if (marker === 0xe0 && at + 16 <= view.byteLength && view.getUint32(at + 4) === 0x4a464946) {
      const units = view.getUint8(at + 11);
      const density = view.getUint16(at + 12);
      if (units === 1) dpi = density;
      if (units === 2) dpi = Math.round(density * 2.54);
    }
    // A start of frame gives the size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc && at + 9 <= view.byteLength)
      return { heightPx: view.getUint16(at + 5), widthPx: view.getUint16(at + 7), dpi };
    at += 2 + length;
  }
  return undefined;
}

/** The image's pixel size and resolution, or undefined when it is no PNG or JPEG (a PDF). */
export function readImageInfo(bytes: ArrayBuffer): ImageInfo | undefined {
  const view = new DataView(bytes);
  if (view.byteLength > 24 && view.getUint32(0) === 0x89504e47) return pngInfo(view);
  if (view.byteLength > 4 && view.getUint16(0) === 0xffd8) return jpegInfo(view);
  return undefined;
}

export type ArtworkWarning = 'dpiUnknown' | 'dpiLow' | 'size';

export interface ArtworkCheck {
  tooLarge: boolean;
  info?: ImageInfo;
  /** Printed size in mm at the file's resolution. */
  widthMm?: number;
  heightMm?: number;
  warnings: ArtworkWarning[];
}

/** Checks an artwork file's size and, for an image, its resolution and printed size. */
export function checkArtwork(size: number, bytes: ArrayBuffer): ArtworkCheck {
  const tooLarge = size >= ARTWORK_MAX_BYTES;
  const info = readImageInfo(bytes);
  const warnings: ArtworkWarning[] = [];
  if (!info) return { tooLarge, warnings };
  if (!info.dpi) warnings.push('dpiUnknown');
  else if (info.dpi < ARTWORK_MIN_DPI) warnings.push('dpiLow');
  const dpi = info.dpi ?? ARTWORK_MIN_DPI;
  const widthMm = Math.round((info.widthPx / dpi) * MM_PER_INCH * 10) / 10;
  const heightMm = Math.round((info.heightPx / dpi) * MM_PER_INCH * 10) / 10;
  if (Math.abs(widthMm - ARTWORK_MM.width) > 0.5 || heightMm < ARTWORK_MM.minHeight || heightMm > ARTWORK_MM.height + 0.5) warnings.push('size');
  return { tooLarge, info, widthMm, heightMm, warnings };
}
