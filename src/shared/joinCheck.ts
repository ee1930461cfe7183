import Ajv from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import { joinFormats, joinRequestSchema } from './join';

/**
 * The join request's ajv check, for the server and the mocks. Kept apart from join.ts so the web app,
 * which compiles nothing at run time, does not bundle ajv's compiler with the rules it reads.
 */
export function compileJoinCheck() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  ajvErrors(ajv);
  for (const [name, validate] of Object.entries(joinFormats)) ajv.addFormat(name, { type: 'string', validate });
  return ajv.compile(joinRequestSchema);
}
