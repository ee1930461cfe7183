import { describe, expect, it } from 'vitest';
import { HttpError } from '../../http/errors';
import { readRules } from './csv';

const NETWORKS = new Set(['26201', '26202', '20801']);
const HEADER = 'country,mcc,mnc,network,dataRate,startDate';

/** A file's bytes cut into chunks of `size` bytes, as a stream hands them on. */
function chunks(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

async function read(parts: Iterable<string | Buffer>, batch = 2) {
  const batches: Record<string, unknown>[][] = [];
  const result = await readRules(parts, NETWORKS, (rows) => void batches.push(rows), { batch });
  return { ...result, batches };
}

describe('reading a rule file as it comes', () => {
  const file = [
    `\uFEFF${HEADER}`,
    'DE,262,01,"Telekom, ""Düsseldorf""\nsecond line",0.1,2026-01-01T00:00:00Z',
    '',
    'DE,262,1,Bad MNC,0.2,2026-01-01T00:00:00Z',
    'FR,208,01,Orange Ⅲ 🚀,0.3,2026-01-01',
    'DE,262,02,Short',
    'DE,262,02,Vodafone,0.4,2026-02-01T00:00:00Z',
  ].join('\r\n');

  it.each([1, 3, 7, 64, 100000])('reads the same rows and lines whatever the chunks (%i bytes)', async (size) => {
    const { total, valid, rejected, batches, error } = await read(chunks(file, size));
    expect(error).toBeUndefined();
    expect({ total, valid }).toEqual({ total: 5, valid: 3 });
    expect(rejected.map((r) => [r.line, r.fields.map((f) => f.messageId)])).toEqual([
      [3, ['validation.mnc.invalid']],
      [5, ['validation.rulesFile.row']],
    ]);
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(batches[0][0].network).toBe('Telekom, "Düsseldorf"\nsecond line');
    expect(batches[0][1].network).toBe('Orange Ⅲ 🚀');
    expect(batches[0][1].startDate).toBe('2026-01-01T00:00:00.000Z');
  });

  it('refuses a header that is not the rules’ columns, and a file without rows', async () => {
    expect((await read(['name,price\nx,1\n'])).error?.messageId).toBe('validation.rulesFile.columns');
    expect((await read([`${HEADER}\n`])).error?.messageId).toBe('validation.rulesFile.columns');
  });

  it('refuses bytes that are not UTF-8, and a NUL, naming the field', async () => {
    const bad = Buffer.concat([Buffer.from(`${HEADER}\nDE,262,01,`), Buffer.from([0xc3, 0x28]), Buffer.from(',0.1,2026-01-01\n')]);
    const encoding = await read([bad]).catch((e: HttpError) => e.toJSON().fields);
    expect(encoding).toEqual([expect.objectContaining({ field: 'pricingPlanFile', rule: 'encoding' })]);
    const nul = await read([`${HEADER}\nDE,262,01,A\0B,0.1,2026-01-01\n`]).catch((e: HttpError) => e.toJSON().fields);
    expect(nul).toEqual([expect.objectContaining({ field: 'pricingPlanFile', rule: 'characters' })]);
  });
});
