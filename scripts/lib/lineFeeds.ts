/**
 * The line feeds in a chunk of a downloaded file, found by `indexOf`: a bench that read 240 MB byte by byte in
 * JavaScript took seconds of the CPU it shares with the server it measures.
 */
export function lineFeeds(chunk: Uint8Array): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) count++;
  return count;
}
