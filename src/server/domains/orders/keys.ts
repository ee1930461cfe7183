/**
 * The SIMs' secret keys (Ki, OPc) at rest: the vendor's batch file of an order is kept encrypted with AES-256-GCM
 * under the order-keys key, which comes from the configuration (SIM_KEYS_KEY), else from a file in the data folder
 * generated on first use (readable by the server's user only), else (an in-memory database: tests) one kept in the
 * settings table. Only the administrator reads them back, and every download is recorded.
 *
 * The file is sealed in chunks of KEY_CHUNK_BYTES (`sim_order_key_chunk`), each its own AES-256-GCM message with a
 * random nonce and its tag, its associated data binding it to the order, its place and whether it is the last one,
 * so no chunk can be altered, moved, swapped with another order's, dropped or cut off unnoticed. A download is read
 * and decrypted a few chunks at a time, twice: once to check every tag (nothing is sent yet), then to send, so the
 * memory it takes does not grow with the order and a damaged file is refused before any plaintext leaves.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { serverKey } from '../auth/secrets';

/** Plaintext bytes per sealed chunk. */
export const KEY_CHUNK_BYTES = 64 * 1024;
/** Chunks read from the database at a time. */
const READ_CHUNKS = 8;
/** Chunks written to the database at a time. */
const WRITE_CHUNKS = 32;

export interface KeyOptions {
  /** The key, any text (hashed to 256 bits); SIM_KEYS_KEY. */
  keysKey?: string;
  /** A file holding the key, generated when missing (DATA_DIR/sim-keys.key). */
  keysKeyFile?: string;
}

/** The 256-bit key from the options (see the module's comment). */
export async function loadKeysKey(db: Kysely<Database>, options: KeyOptions = {}): Promise<Buffer> {
  let text = options.keysKey;
  if (!text && options.keysKeyFile) {
    if (!existsSync(options.keysKeyFile)) {
      mkdirSync(dirname(options.keysKeyFile), { recursive: true });
      writeFileSync(options.keysKeyFile, randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    }
    text = readFileSync(options.keysKeyFile, 'utf8').trim();
  }
  text ??= await serverKey(db, 'sim_keys_key');
  return createHash('sha256').update(text).digest();
}

/** A stored key file that fails its checks: a tag does not verify, or a chunk is missing, extra or out of place. */
export class KeyFileDamaged extends Error {}

interface Sealed {
  iv: Buffer;
  tag: Buffer;
  ciphertext: Buffer;
}
interface SealedChunk extends Sealed {
  seq: number;
}
/** The associated data of a chunk: the order, the chunk's place, and whether the file ends with it. */
const chunkAad = (uuid: string, seq: number, last: boolean) => `${uuid}\u0000${seq}\u0000${last ? 'last' : 'more'}`;

/** Seals text pieces (lines) in chunks of about `chunkBytes`; the last one is marked as such. */
export function* sealChunks(key: Buffer, pieces: Iterable<string>, uuid: string, chunkBytes = KEY_CHUNK_BYTES): Generator<SealedChunk> {
  let seq = 0;
  let pending: Buffer | undefined;
  let parts: Buffer[] = [];
  let size = 0;
  const seal = (plain: Buffer, last: boolean): SealedChunk => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(chunkAad(uuid, seq, last)));
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
    return { seq: seq++, iv, tag: cipher.getAuthTag(), ciphertext };
  };
  for (const piece of pieces) {
    const bytes = Buffer.from(piece, 'utf8');
    parts.push(bytes);
    size += bytes.length;
    if (size < chunkBytes) continue;
    // A full chunk waits until the next one starts, so the last one can be told apart.
    if (pending) yield seal(pending, false);
    pending = Buffer.concat(parts);
    parts = [];
    size = 0;
  }
  if (size > 0) {
    if (pending) yield seal(pending, false);
    pending = Buffer.concat(parts);
  }
  yield seal(pending ?? Buffer.alloc(0), true);
}

/** Stores an order's key file sealed in chunks, inside the caller's transaction; answers the number of chunks. */
export async function storeKeyFile(trx: Kysely<Database>, key: Buffer, orderId: number, uuid: string, pieces: Iterable<string>) {
  await trx.deleteFrom('simOrderKeys').where('orderId', '=', orderId).execute();
  await trx.insertInto('simOrderKeys').values({ orderId, chunks: 1 }).execute();
  let batch: SealedChunk[] = [];
  let chunks = 0;
  const flush = async () => {
    if (batch.length)
      await trx
        .insertInto('simOrderKeyChunk')
        .values(batch.map((c) => ({ orderId, ...c })))
        .execute();
    batch = [];
  };
  for (const chunk of sealChunks(key, pieces, uuid)) {
    batch.push(chunk);
    chunks++;
    if (batch.length >= WRITE_CHUNKS) await flush();
  }
  await flush();
  await trx.updateTable('simOrderKeys').set({ chunks }).where('orderId', '=', orderId).execute();
  return chunks;
}

function open(key: Buffer, sealed: Sealed, aad: string): Buffer {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
    decipher.setAAD(Buffer.from(aad));
    decipher.setAuthTag(sealed.tag);
    // GCM gives the plaintext back only with final(), which throws when the tag does not verify.
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    throw new KeyFileDamaged('a key file chunk failed its authentication');
  }
}

/** The stored head of an order's key file: the chunk count, or the whole file sealed at once (orders placed before chunks). */
export type KeyFileHead = { chunks: number | null; iv: Buffer | null; tag: Buffer | null; ciphertext: Buffer | null };

export async function keyFileHead(db: Kysely<Database>, orderId: number): Promise<KeyFileHead | undefined> {
  return db.selectFrom('simOrderKeys').select(['chunks', 'iv', 'tag', 'ciphertext']).where('orderId', '=', orderId).executeTakeFirst();
}

/** The plaintext of a key file, chunk by chunk, each checked before it is given; throws KeyFileDamaged. */
async function* plaintext(db: Kysely<Database>, key: Buffer, orderId: number, uuid: string, head: KeyFileHead): AsyncGenerator<Buffer> {
  if (head.chunks === null) {
    if (!head.iv || !head.tag || !head.ciphertext) throw new KeyFileDamaged('no sealed file');
    yield open(key, { iv: head.iv, tag: head.tag, ciphertext: head.ciphertext }, uuid);
    return;
  }
  const chunks = head.chunks;
  let seq = 0;
  for (;;) {
    const rows = await db
      .selectFrom('simOrderKeyChunk')
      .select(['seq', 'iv', 'tag', 'ciphertext'])
      .where('orderId', '=', orderId)
      .where('seq', '>=', seq)
      .orderBy('seq')
      .limit(READ_CHUNKS)
      .execute();
    if (!rows.length) break;
    for (const row of rows) {
      if (row.seq !== seq || seq >= chunks) throw new KeyFileDamaged(`key file chunk ${seq} is missing or out of place`);
      yield open(key, row, chunkAad(uuid, seq, seq === chunks - 1));
      seq++;
    }
  }
  if (seq !== chunks) throw new KeyFileDamaged(`key file has ${seq} of its ${chunks} chunks`);
}

/** Reads and authenticates the whole key file without keeping it; throws KeyFileDamaged when it fails. */
export async function verifyKeyFile(db: Kysely<Database>, key: Buffer, orderId: number, uuid: string, head: KeyFileHead) {
  for await (const piece of plaintext(db, key, orderId, uuid, head)) piece.fill(0);
}

/** The key file as a stream of checked plaintext chunks, read from the database as the reader takes them. */
export function keyFileStream(db: Kysely<Database>, key: Buffer, orderId: number, uuid: string, head: KeyFileHead): Readable {
  return Readable.from(plaintext(db, key, orderId, uuid, head), { objectMode: false });
}
