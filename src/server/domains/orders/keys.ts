/**
 * The SIMs' secret keys (Ki, OPc) at rest: the vendor's batch file of an order is kept encrypted with AES-256-GCM
 * under the order-keys key, which comes from the configuration (SIM_KEYS_KEY), else from a file in the data folder
 * generated on first use (readable by the server's user only), else (an in-memory database: tests) one kept in the
 * settings table. Only the administrator reads them back, and every download is recorded.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { serverKey } from '../auth/secrets';

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

export function encrypt(key: Buffer, plain: string, aad: string) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

export function decrypt(key: Buffer, sealed: { iv: Buffer; tag: Buffer; ciphertext: Buffer }, aad: string): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(sealed.tag);
  return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
}
