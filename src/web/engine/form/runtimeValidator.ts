import { customizeValidator } from '@rjsf/validator-ajv8';
import { AJV_OPTIONS } from './ajvConfig';

/**
 * A validator that compiles any schema when first asked, with ajv's `new Function`: for tests and tools in
 * Node only. The browser's Content-Security-Policy forbids that, so the app's forms use the precompiled
 * validators of validator.ts; nothing the app bundles may import this module.
 */
export const runtimeValidator = customizeValidator(AJV_OPTIONS);
