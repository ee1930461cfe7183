/**
 * Excel downloads that stream, beside the CSV ones (csv.ts): the same batches from the database, written row by row
 * with exceljs's streaming workbook writer (no shared strings, so a row leaves as soon as it is committed) into the
 * reply. Rows are only read while the client keeps up: when the reply's buffer is full, the next batch waits.
 * Numbers are numbers and dates are dates (see @shared/spreadsheet); the header row is bold and stays in view.
 */
import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { DATE_FORMATS, spreadsheetCell, XLSX_CONTENT_TYPE, type CellKind } from '@shared/spreadsheet';

type Row = Record<string, unknown>;

/**
 * Waits until the rows written so far have reached `out` and `out` has room again, or has been closed (the client
 * went away). The writer's zip compresses between event-loop turns, so a turn is given first: then a full reply
 * buffer is seen, and the next batch waits for the client.
 */
async function room(out: PassThrough): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (!out.writableNeedDrain || out.destroyed) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/** A column's width in characters: its header's, within reason, wider for dates. */
const width = (header: string, kind: CellKind) => Math.min(40, Math.max(header.length + 2, kind === 'dateTime' ? 20 : kind === 'date' ? 12 : 10));

/**
 * The workbook as a stream: one worksheet named `sheetName`, the header row (bold, frozen), then one row per
 * database row as `toValues` maps it, each value made a cell of its column's kind.
 */
export function xlsxStream(
  sheetName: string,
  header: readonly string[],
  kinds: readonly CellKind[],
  batches: AsyncIterable<Row[]>,
  toValues: (row: Row) => unknown[],
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // Excel's sheet names: at most 31 characters, none of : \ / ? * [ ].
  const sheet = workbook.addWorksheet(sheetName.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = header.map((h, i) => {
    const kind = kinds[i];
    return { key: String(i), width: width(h, kind), ...(kind === 'date' || kind === 'dateTime' ? { style: { numFmt: DATE_FORMATS[kind] } } : {}) };
  });
  const head = sheet.addRow([...header]);
  head.font = { bold: true };
  head.commit();
  (async () => {
    for await (const rows of batches) {
      for (const row of rows) {
        const values = toValues(row);
        sheet.addRow(kinds.map((kind, i) => spreadsheetCell(values[i], kind))).commit();
      }
      await room(out);
      // The client went away: leaving the loop ends the batches (and their database transaction).
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  })().catch((e: Error) => out.destroy(e));
  return out;
}

/** Sends an Excel attachment (see `xlsxStream`); `filename` ends in .xlsx. */
export function sendXlsx(
  reply: FastifyReply,
  filename: string,
  header: readonly string[],
  kinds: readonly CellKind[],
  batches: AsyncIterable<Row[]>,
  toValues: (row: Row) => unknown[],
) {
  const sheetName = filename.replace(/\.xlsx$/, '').replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return reply
    .header('content-type', XLSX_CONTENT_TYPE)
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(xlsxStream(sheetName, header, kinds, batches, toValues));
}
