/**
 * CSV downloads that stream: rows leave the database in batches and the response in chunks, so memory stays
 * flat however many rows a search matches. On PostgreSQL a server-side cursor inside a read-only transaction
 * reads one consistent snapshot; on the embedded PGlite, which has one connection for every request, the rows
 * are read page by page in the query's own order, so a slow client never holds the database.
 */
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { CamelCasePlugin, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DOWNLOAD_FORMATS, type DownloadFormat } from '@shared/spreadsheet';
import { csvLine } from '@shared/csv';
import { CUSTOM_PROPERTY, customKeyOf } from '@shared/customFields';
import { poolOf, type Engine } from '../db';
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

/** How node-pg turns a parameter into the text it sends (arrays, dates and JSON included). */
const prepareValue = (createRequire(import.meta.url)('pg/lib/utils') as { prepareValue: (v: unknown) => unknown }).prepareValue;

/**
 * A compiled query with its parameters written in as literals (COPY takes none), each as the text node-pg would have
 * sent for it, so the database reads the same values with the same types. Undefined for a parameter that has no
 * such text (binary data).
 */
function withLiterals(text: string, parameters: readonly unknown[]): string | undefined {
  const literals: string[] = [];
  for (const parameter of parameters) {
    const value = prepareValue(parameter);
    if (value === null || value === undefined) literals.push('null');
    else if (typeof value === 'string') literals.push(pg.Client.prototype.escapeLiteral(value));
    else return undefined;
  }
  // $n outside quoted literals and identifiers.
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (match, n?: string) => (n ? literals[Number(n) - 1] : match));
}

/** Result rows named as the database's plugin names them (camelCase, keys of JSON values too). */
class RowNames extends CamelCasePlugin {
  row(row: Row): Row {
    return this.mapRow(row);
  }
}
const rowNames = new RowNames();

/** COPY's text format: `\N` is null, a backslash escapes the rest. */
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
const unescapeCopy = (text: string) => (text.includes('\\') ? text.replace(/\\(.)/g, (_, c: string) => COPY_ESCAPES[c] ?? c) : text);

/** A query's text for COPY (its parameters written in) and the pool to run it on; undefined on PGlite, or without a text form. */
function copySource(db: Kysely<Database>, query: SelectQueryBuilder<any, any, Row>): { pool: pg.Pool; text: string } | undefined {
  const pool = poolOf(db);
  const compiled = query.compile();
  const text = pool && withLiterals(compiled.sql, compiled.parameters);
  return pool && text ? { pool, text } : undefined;
}

/**
 * The bytes of one `COPY … TO STDOUT` (the statement `prepare` answers on the connection it is given), read only as
 * fast as they are taken. A COPY that failed or was left unread (the client went away) leaves its connection unusable:
 * closed, not reused.
 */
async function* copyOut(pool: pg.Pool, prepare: (client: pg.PoolClient) => Promise<string>): AsyncGenerator<Buffer> {
  const client = await pool.connect();
  let broken: Error | undefined;
  let finished = false;
  try {
    const stream = client.query(copyTo(await prepare(client)));
    stream.on('error', (e) => (broken = e));
    yield* stream as AsyncIterable<Buffer>;
    if (broken) throw broken;
    finished = true;
  } finally {
    client.release(finished ? undefined : (broken ?? true));
  }
}

/**
 * PostgreSQL only (undefined on PGlite): the rows of a query through `COPY (query) TO STDOUT`, in its order and
 * from one snapshot, batch by batch as they arrive, each value read by the parser node-pg would use for its type
 * (so they equal `queryBatches`' rows). One statement instead of a cursor's round trip per batch; the stream is
 * read only as fast as the rows are taken.
 */
export function copyBatches(db: Kysely<Database>, query: SelectQueryBuilder<any, any, Row>): AsyncGenerator<Row[]> | undefined {
  const source = copySource(db, query);
  if (!source) return undefined;
  const { pool, text } = source;
  return (async function* () {
    let names: string[] = [];
    let parsers: ((value: string) => unknown)[] = [];
    const chunks = copyOut(pool, async (client) => {
      const { fields } = await client.query(`select * from (${text}) as q limit 0`);
      names = fields.map((f) => f.name);
      parsers = fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text') as (value: string) => unknown);
      return `copy (${text}) to stdout`;
    });
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for await (const chunk of chunks) {
      const lines = (rest + decoder.write(chunk)).split('\n');
      rest = lines.pop()!;
      const rows: Row[] = [];
      for (const line of lines) {
        const cells = line.split('\t');
        const row: Row = {};
        for (let i = 0; i < names.length; i++) row[names[i]] = cells[i] === '\\N' ? null : parsers[i](unescapeCopy(cells[i]));
        rows.push(rowNames.row(row));
      }
      if (rows.length) yield rows;
    }
  })();
}

/** Types whose text PostgreSQL writes as `csvCell` writes the value node-pg reads (int8 is read as a number). */
const PLAIN_TYPES = new Set([16, 20, 21, 23, 26, 1700, 2950]);
const TEXT_TYPES = new Set([25, 1042, 1043]);
const TIMESTAMPTZ = 1184;
/** `=`, `+`, `-`, `@`, tab, carriage return: a first character a spreadsheet runs as a formula. */
const FORMULA_STARTS = '61, 43, 45, 64, 9, 13';
/** `csvCell`'s formula guard on text `t` in SQL (an apostrophe first, unless the text is a number); '' as null. */
const guardedText = (t: string) =>
  `nullif(case when ascii(${t}) in (${FORMULA_STARTS}) and ${t} !~ '^-?[0-9]+([.][0-9]+)?$' then '''' || ${t} else ${t} end, '')`;

/**
 * Turns the line feeds that end CSV lines into CR LF, chunk after chunk: a line feed inside a quoted value stays as it
 * is (a doubled quote inside one turns the state twice, so it stays quoted). The quotes and line feeds are found by
 * `indexOf` (the bytes between them are not looked at one by one), and the next quote is searched for again only once
 * it is passed.
 */
export function crlf(): (chunk: Buffer) => Buffer {
  let quoted = false;
  return (chunk) => {
    const ends: number[] = [];
    let at = 0;
    let quote = chunk.indexOf(34);
    for (;;) {
      // Outside quotes, a line feed before the next quote ends a line; otherwise the next quote turns the state.
      const end = quoted ? -1 : chunk.indexOf(10, at);
      if (end >= 0 && (quote < 0 || end < quote)) {
        ends.push(end);
        at = end + 1;
        continue;
      }
      if (quote < 0) break;
      quoted = !quoted;
      at = quote + 1;
      quote = chunk.indexOf(34, at);
    }
    if (!ends.length) return chunk;
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let written = 0;
    for (const end of ends) {
      written += chunk.copy(out, written, from, end);
      out[written++] = 13;
      from = end;
    }
    chunk.copy(out, written, from);
    return out;
  };
}

/**
 * PostgreSQL only: a list's CSV, header line included, written by the database in one
 * `COPY (…) TO STDOUT (FORMAT csv, HEADER)` of the list's query, one column per exported field (wire names;
 * `custom.<key>` for a custom field) holding what `csvCell` writes: numbers, booleans and ids as their text,
 * timestamps as ISO 8601 in UTC with milliseconds, text and custom values through the formula guard. COPY quotes
 * what holds a quote, a comma or a line break. Node only ends each line with CR LF, as `csvLine` does (`crlf`). Undefined
 * where that could not be the same file: on PGlite, for a parameter without a text form, or a column of a type not
 * written here (floating point, whose text differs from JavaScript's). One difference is left: `csvLine` also quotes
 * text that starts or ends with padding, COPY does not; both read back the same.
 */
export async function copyCsv(
  db: Kysely<Database>,
  query: SelectQueryBuilder<any, any, Row>,
  fields: readonly string[],
): Promise<AsyncIterable<Buffer> | undefined> {
  const source = copySource(db, query);
  if (!source) return undefined;
  const { pool, text } = source;
  const { fields: columns } = await pool.query(`select * from (${text}) as q limit 0`);
  const byName = new Map(columns.map((c) => [Object.keys(rowNames.row({ [c.name]: null }))[0], c]));
  const cells: string[] = [];
  for (const field of fields) {
    const key = customKeyOf(field);
    const column = byName.get(key === undefined ? field : CUSTOM_PROPERTY);
    const ref = `q.${pg.Client.prototype.escapeIdentifier(column?.name ?? '')}`;
    let cell: string;
    if (!column) cell = 'null';
    // A custom value is a JSON scalar (text, number, date or choice): a number's text (never an exponent in jsonb)
    // or a boolean's passes the guard unchanged.
    else if (key !== undefined) cell = guardedText(`(${ref} ->> ${pg.Client.prototype.escapeLiteral(key)})`);
    else if (PLAIN_TYPES.has(column.dataTypeID)) cell = `${ref}::text`;
    else if (TEXT_TYPES.has(column.dataTypeID)) cell = guardedText(`${ref}::text`);
    else if (column.dataTypeID === TIMESTAMPTZ) cell = `to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    else return undefined;
    cells.push(`${cell} as ${pg.Client.prototype.escapeIdentifier(field)}`);
  }
  const copy = `copy (select ${cells.join(', ')} from (${text}) as q) to stdout with (format csv, header)`;
  const ends = crlf();
  return (async function* () {
    for await (const chunk of copyOut(pool, async () => copy)) yield ends(chunk);
  })();
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
    yield csvLine(header);
    for await (const rows of batches) yield rows.map((row) => csvLine(toValues(row))).join('');
  }
  return sendCsvFile(reply, filename, lines());
}

/** Sends a CSV attachment of `file` (its header line first) while the client keeps up. */
export function sendCsvFile(reply: FastifyReply, filename: string, file: AsyncIterable<string | Buffer>) {
  async function* all() {
    yield BOM;
    yield* file;
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(all()));
}
