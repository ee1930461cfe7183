import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { fieldError, invalid } from './errors';

/**
 * The text and name of the file a multipart request carries in `field`. No file, another field or an empty file is refused
 * as 'Please select a file.', one over the multipart limit (4 MB) as 'File size should be less than 4 MB!', text that
 * is not UTF-8 or holds a NUL byte as such; each refusal names the field.
 */
export async function uploadedText(request: FastifyRequest, field: string): Promise<{ text: string; filename: string }> {
  const refuse = (rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);
  if (!request.isMultipart()) throw refuse('required', 'validation.file.required');
  const file = await request.file();
  if (!file || file.fieldname !== field) throw refuse('required', 'validation.file.required');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (e) {
    if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('size', 'validation.file.tooLarge');
    throw e;
  }
  if (!bytes.length) throw refuse('required', 'validation.file.required');
  // Bytes that are not UTF-8 would become U+FFFD unseen, and a NUL cannot be stored: the file is refused instead.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw refuse('encoding', 'validation.file.encoding');
  }
  if (text.includes('\0')) throw refuse('characters', 'validation.character.notAllowed');
  return { text, filename: file.filename };
}

/**
 * The file a multipart request carries in `field`, written to a temporary file as it arrives (the request's bytes
 * are never held whole, and a slow upload holds no database connection): its path, name and a function that
 * removes it. Refused as `uploadedText` refuses (no file, another field, an empty file, one over the limit); its
 * text is the reader's to check.
 */
export async function uploadedFile(request: FastifyRequest, field: string): Promise<{ path: string; filename: string; remove: () => Promise<void> }> {
  const refuse = (rule: string, messageId: string) => invalid([fieldError(field, rule, messageId)]);
  if (!request.isMultipart()) throw refuse('required', 'validation.file.required');
  const file = await request.file();
  if (!file || file.fieldname !== field) throw refuse('required', 'validation.file.required');
  const dir = await mkdtemp(join(tmpdir(), 'upload-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const path = join(dir, 'file');
  try {
    try {
      await pipeline(file.file, createWriteStream(path));
    } catch (e) {
      if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw refuse('size', 'validation.file.tooLarge');
      throw e;
    }
    if (file.file.truncated) throw refuse('size', 'validation.file.tooLarge');
    if (!(await stat(path)).size) throw refuse('required', 'validation.file.required');
  } catch (e) {
    await remove();
    throw e;
  }
  return { path, filename: file.filename, remove };
}
