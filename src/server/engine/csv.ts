/**
 * CSV downloads that stream: rows leave the database in batches and the response in chunks, so memory stays
 * flat however many rows a search matches. On PostgreSQL a server-side cursor inside a read-only transaction
 * reads one consistent snapshot; on the embedded PGlite, which has one connection for every request, the rows
 * are read page by page in the query's own order, so a slow client never holds the database.
 */
import { Readable } from 'node:stream';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_FORMATS, type DownloadFormat } from '@shared/spreadsheet';
import { csvLine } from '@shared/csv';
import type { Engine } from '../db';
import type { Database } from '../db/types';

type Row = Record<string, unknown>;

/** Rows per database round trip (a million-row export: 12 s with 500, 15 s with 2,000). */
export const CSV_BATCH = 500;

/** The rows of an ordered query, batch by batch, as the engine allows (see the module's comment). */
export async function* queryBatches(db: Kysely<Database>, engine: Engine, query: SelectQueryBuilder<any, any, Row>, batch = CSV_BATCH): AsyncGenerator<Row[]> {
  if (engine === 'pglite') {
    for (let offset = 0; ; offset += batch) {
      const rows = await query.limit(batch).offset(offset).execute();
      if (rows.length) yield rows;
      if (rows.length < batch) return;
    }
  }
  const trx = await db.startTransaction().setAccessMode('read only').setIsolationLevel('repeatable read').execute();
  try {
    const compiled = query.compile();
    // The cursor's query keeps its parameters: DECLARE is prepared like any statement.
    await trx.executeQuery({ ...compiled, sql: `declare export_cursor no scroll cursor for ${compiled.sql}` });
    const fetchBatch = () => sql<Row>`fetch forward ${sql.lit(batch)} from export_cursor`.execute(trx).then((r) => r.rows);
    // The next batch is asked for before this one is written, so the database reads while the rows are formatted.
    let next: Promise<Row[]> | undefined = fetchBatch();
    while (next) {
      const rows: Row[] = await next;
      next = rows.length === batch ? fetchBatch() : undefined;
      next?.catch(() => undefined); // a download stopped early leaves it unread; its error comes from the rollback
      if (rows.length) yield rows;
    }
    await trx.commit().execute();
  } catch (e) {
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    throw e;
  } finally {
    // The client went away mid-download: the generator was closed early; end the transaction.
    if (!trx.isCommitted && !trx.isRolledBack)
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
  }
}

/**
 * The `format` query of a download route: `csv` (the default) or `xlsx`. Other query parameters of a list (its
 * filters, `include_inventory`) stay allowed.
 */
export const downloadQuery = {
  type: 'object',
  properties: {
    format: {
      type: 'string',
      enum: [...DOWNLOAD_FORMATS],
      default: 'csv',
      description: 'csv (text, the default) or xlsx (an Excel workbook: numbers as numbers, dates as dates)',
      errorMessage: 'validation.downloadFormat.invalid',
    },
  },
};

/** The format a download was asked in (see `downloadQuery`). */
export function downloadFormat(request: FastifyRequest): DownloadFormat {
  return (request.query as { format?: DownloadFormat } | undefined)?.format === 'xlsx' ? 'xlsx' : 'csv';
}

/** A UTF-8 mark first, so spreadsheet programs read every script correctly; parsers of ours skip it. */
const BOM = '\uFEFF';

/**
 * Sends a CSV attachment: the header line, then one line per row as `toValues` maps it, read from `batches`
 * while the client keeps up (backpressure pauses the reads).
 */
export function sendCsv(reply: FastifyReply, filename: string, header: readonly string[], batches: AsyncIterable<Row[]>, toValues: (row: Row) => unknown[]) {
  async function* lines() {
    yield BOM + csvLine(header);
    for await (const rows of batches) yield rows.map((row) => csvLine(toValues(row))).join('');
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(lines()));
}
