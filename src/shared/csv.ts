/** CSV lines as the portal's downloads write them, shared by the server and the mocks. */

/** Text that needs neither the formula guard nor quotes (most cells): one test instead of three. */
const PLAIN = /^[^=+\-@\s",\r\n](?:[^",\r\n]*[^\s",\r\n])?$/;

/**
 * One CSV field. Text a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage return)
 * is prefixed with an apostrophe; numbers stay numbers, also when they arrive as text (exact decimals from the
 * database, e.g. "-12.50"). Structured values are written as JSON.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  let text = value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (PLAIN.test(text)) return text;
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text.trim() !== text ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
