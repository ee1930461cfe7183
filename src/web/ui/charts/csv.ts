/** A chart's data as a CSV file, made in the browser (the series are small). */
export type CsvCell = string | number | null | undefined;

const cell = (value: CsvCell) => {
  if (typeof value === 'number') return String(value);
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** RFC 4180 text with a header row; a cell a spreadsheet would run as a formula is quoted. */
export function csvText(columns: string[], rows: CsvCell[][]): string {
  return [columns, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Offers the text as a download named after the chart. */
export function downloadCsv(name: string, text: string) {
  const blob = new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `${name.replace(/[\\/:*?"<>|]+/g, '-').trim() || 'chart'}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
