import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from '@server/http/errors';

/** What pg and PGlite throw: a SQLSTATE, a severity and a message naming the database's own things. */
const databaseError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR', routine: 'x' });

describe('database errors in answers', () => {
  async function answer(error: Error) {
    const app = Fastify();
    registerErrorHandler(app);
    app.get('/fail', async () => {
      throw error;
    });
    const res = await app.inject({ method: 'GET', url: '/fail' });
    await app.close();
    return res;
  }

  it('turns a value the database refused into a 400 without its code or message', async () => {
    for (const [code, rule] of [
      ['22003', 'range'],
      ['22P02', 'type'],
      ['22007', 'format'],
      ['22008', 'range'],
      ['22021', 'characters'],
      ['22P05', 'characters'],
    ]) {
      const res = await answer(databaseError(code, 'value "2147483648" is out of range for type integer'));
      expect(res.statusCode, code).toBe(400);
      expect(res.json(), code).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'Some fields are not valid',
        fields: [{ field: '', rule, messageId: 'validation.invalid', message: 'This value is not valid' }],
      });
    }
  });

  it('answers any other database error as a generic 500, its code and message kept out', async () => {
    const res = await answer(databaseError('42P01', 'relation "secret_table" does not exist'));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'Something went wrong. Please try again or contact support.' });
  });

  it("names a field of Fastify's own schema check as the portal does (`save[1].name`)", async () => {
    const app = Fastify();
    registerErrorHandler(app);
    const body = { type: 'object', properties: { save: { type: 'array', items: { type: 'object', properties: { name: { type: 'string', maxLength: 3 } } } } } };
    app.post('/save', { schema: { body } }, async () => ({}));
    const res = await app.inject({ method: 'POST', url: '/save', payload: { save: [{ name: 'ok' }, { name: 'too long' }] } });
    await app.close();
    expect(res.json().fields.map((f: { field: string; rule: string }) => [f.field, f.rule])).toEqual([['save[1].name', 'maxLength']]);
  });

  it('never forwards the code of an unexpected error', async () => {
    const res = await answer(Object.assign(new Error('boom'), { code: 'ECONNRESET' }));
    expect(res.json()).toEqual({ statusCode: 500, code: 'INTERNAL', message: 'Something went wrong. Please try again or contact support.' });
  });
});
