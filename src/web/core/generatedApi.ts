/**
 * Helpers for the endpoints `npm run api:gen` writes (`*.gen.ts`) from the server's OpenAPI document. Where the
 * document describes no answer for an operation, the generated result type is `unknown`; a domain names the type
 * the call answers with `answering`, and the hooks and selectors of the returned API carry it.
 */
import type { Api, OverrideResultType } from '@reduxjs/toolkit/query';

type DefinitionsOf<A> = A extends Api<never, infer D, string, string> ? D : never;

/** The API `A` with the result types `R` gives for some of its endpoints; the others keep their generated types. */
export type Answering<A, R extends Partial<Record<keyof DefinitionsOf<A>, unknown>>> =
  A extends Api<infer B, infer D, infer P, infer T, infer E>
    ? Api<B, { [K in keyof D]: K extends keyof R ? (unknown extends R[K] ? D[K] : OverrideResultType<D[K], R[K]>) : D[K] }, P, T, E>
    : never;

/** Types the answers of generated endpoints the document leaves untyped (nothing changes at run time). */
export function answering<R>() {
  return <A>(generated: A) => generated as unknown as Answering<A, R & Partial<Record<keyof DefinitionsOf<A>, unknown>>>;
}
