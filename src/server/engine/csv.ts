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

/**
 * PostgreSQL only (undefined on PGlite): the rows of a query through `COPY (query) TO STDOUT`, in its order and
 * from one snapshot, batch by batch as they arrive, each value read by the parser node-pg would use for its type
 * (so they equal `queryBatches`' rows). One statement instead of a cursor's round trip per batch; the stream is
 * read only as fast as the rows are taken.
 */
export function copyBatches(db: Kysely<Database>, query: SelectQueryBuilder<any, any, Row>): AsyncGenerator<Row[]> | undefined {
  const pool = poolOf(db);
  const compiled = query.compile();
  const text = pool && withLiterals(compiled.sql, compiled.parameters);
  if (!pool || !text) return undefined;
  return (async function* () {
    const client = await pool.connect();
    let broken: Error | undefined;
    let finished = false;
    try {
      const { fields } = await client.query(`select * from (${text}) as q limit 0`);
      const names = fields.map((f) => f.name);
      const parsers = fields.map((f) => pg.types.getTypeParser(f.dataTypeID, 'text') as (value: string) => unknown);
      const stream = client.query(copyTo(`copy (${text}) to stdout`));
      stream.on('error', (e) => (broken = e));
      const decoder = new StringDecoder('utf8');
      let rest = '';
      for await (const chunk of stream as AsyncIterable<Buffer>) {
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
      if (broken) throw broken;
      finished = true;
    } finally {
      // A COPY that failed or was left unread (the client went away) leaves its connection unusable: closed, not reused.
      client.release(finished ? undefined : (broken ?? true));
    }
  })();
}

/** Types whose text PostgreSQL writes as `csvCell` writes the value node-pg reads (int8 is read as a number). */
const PLAIN_TYPES = new Set([16, 20, 21, 23, 26, 1700, 2950]);
const TEXT_TYPES = new Set([25, 1042, 1043]);
const TIMESTAMPTZ = 1184;
const JSONB = 3802;
/**
 * What `csvCell` does to text `t` (an expression cheap to repeat), in SQL: the formula guard (an apostrophe first),
 * then quotes around a cell holding `"`, `,` or a line break, or starting or ending with padding. A guarded cell
 * starts with the apostrophe, so only padding that is never guarded can start one: a space, a form feed or a
 * vertical tab (a tab or carriage return first is always guarded, a line feed is quoted anyway).
 */
const textCell = (t: string) => {
  const guarded = `case when left(${t}, 1) in ('=', '+', '-', '@', E'\\t', E'\\r') and ${t} !~ '^-?[0-9]+([.][0-9]+)?$' then '''' || ${t} else ${t} end`;
  const quoted = `strpos(${t}, '"') > 0 or strpos(${t}, ',') > 0 or strpos(${t}, E'\\n') > 0 or strpos(${t}, E'\\r') > 0
    or left(${t}, 1) in (' ', E'\\f', E'\\v') or right(${t}, 1) in (' ', E'\\t', E'\\r', E'\\n', E'\\f', E'\\v')`;
  return `case when ${quoted} then '"' || replace(${guarded}, '"', '""') || '"' else ${guarded} end`;
};

/**
 * PostgreSQL only: the CSV lines of a query (without the header), written by the database itself in one
 * `COPY (…) TO STDOUT`, each as `csvLine` writes the row's `fields` (wire names; `custom.<key>` for a custom field).
 * Node only takes COPY's own escapes off: no value is parsed, no row object made. Undefined where that could not be
 * exact: on PGlite, for a parameter without a text form, or a column of a type not written here (floating point,
 * say, whose text differs from JavaScript's).
 */
export async function copyCsvLines(
  db: Kysely<Database>,
  query: SelectQueryBuilder<any, any, Row>,
  fields: readonly string[],
): Promise<AsyncIterable<string> | undefined> {
  const pool = poolOf(db);
  const compiled = query.compile();
  const text = pool && withLiterals(compiled.sql, compiled.parameters);
  if (!pool || !text) return undefined;
  const { fields: columns } = await pool.query(`select * from (${text}) as q limit 0`);
  const byName = new Map(columns.map((c) => [Object.keys(rowNames.row({ [c.name]: null }))[0], c]));
  const cells: string[] = [];
  for (const field of fields) {
    const key = customKeyOf(field);
    const column = byName.get(key === undefined ? field : CUSTOM_PROPERTY);
    if (!column) {
      cells.push(`''`);
      continue;
    }
    const ref = `q.${pg.Client.prototype.escapeIdentifier(column.name)}`;
    if (key !== undefined) {
      if (column.dataTypeID !== JSONB) return undefined;
      // A custom value is a JSON scalar (text, number, date or choice). Its text as `->>` gives it goes through the
      // text cell: a number's text (never an exponent in jsonb) or a boolean's is left as it is there.
      cells.push(`coalesce(${textCell(`(${ref} ->> ${pg.Client.prototype.escapeLiteral(key)})`)}, '')`);
    } else if (PLAIN_TYPES.has(column.dataTypeID)) cells.push(`coalesce(${ref}::text, '')`);
    else if (TEXT_TYPES.has(column.dataTypeID)) cells.push(`coalesce(${textCell(`${ref}::text`)}, '')`);
    else if (column.dataTypeID === TIMESTAMPTZ) cells.push(`coalesce(to_char(${ref} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`);
    else return undefined;
  }
  const copy = `copy (select ${cells.length ? cells.join(` || ',' || `) : `''`} from (${text}) as q) to stdout`;
  return (async function* () {
    const client = await pool.connect();
    let broken: Error | undefined;
    let finished = false;
    try {
      const stream = client.query(copyTo(copy));
      stream.on('error', (e) => (broken = e));
      const decoder = new StringDecoder('utf8');
      let rest = '';
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const lines = (rest + decoder.write(chunk)).split('\n');
        rest = lines.pop()!;
        if (lines.length) yield `${lines.map(unescapeCopy).join('\r\n')}\r\n`;
      }
      if (broken) throw broken;
      finished = true;
    } finally {
      // As in copyBatches: a COPY failed or left unread closes its connection.
      client.release(finished ? undefined : (broken ?? true));
    }
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
    for await (const rows of batches) yield rows.map((row) => csvLine(toValues(row))).join('');
  }
  return sendCsvLines(reply, filename, header, lines());
}

/** Sends a CSV attachment: the header line, then `lines` (already written) while the client keeps up. */
export function sendCsvLines(reply: FastifyReply, filename: string, header: readonly string[], lines: AsyncIterable<string>) {
  async function* all() {
    yield BOM + csvLine(header);
    yield* lines;
  }
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`)
    .header('cache-control', 'no-store')
    .send(Readable.from(all()));
}
