/**
 * Dates as people and spreadsheets write them. A date without a time (YYYY-MM-DD) means the start of that day in
 * UTC, so it reads the same wherever it is typed; any other text is left as it is for the date-time format to
 * check (and name, when it is not one).
 */
export function dateTimeText(text: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : text;
}
