/**
 * An invoice as a PDF (pdfkit): the reseller's logo, who bills whom, the QuickBooks customer, number and period,
 * the balances, one line per ledger movement of the month (the header repeated on every page) and the totals. The
 * movements are written as they arrive from the database, so a long month does not sit in memory as rows.
 * The built-in Helvetica covers Western European text; an SVG logo is left out (pdfkit draws only PNG and JPEG).
 */
import PDFDocument from 'pdfkit';

/** Exact decimal text ("-1234.5") as money: thousands grouped, two decimals ("-1,234.50"); no floating point. */
export function money(text: string | number): string {
  const s = String(text);
  const negative = s.startsWith('-');
  const [whole, fraction = ''] = s.replace(/^[-+]/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative && /[1-9]/.test(s) ? '-' : ''}${grouped}.${(fraction + '00').slice(0, 2)}`;
}

export const invoiceFileNumber = (n: number) => String(n).padStart(6, '0');

export interface InvoiceHead {
  number: number;
  month: string;
  periodStart: Date;
  periodEnd: Date;
  issuedAt: Date;
  dueDate: string;
  status: string;
  currency: string;
  openingBalance: string;
  credits: string;
  debits: string;
  fees: string;
  closingBalance: string;
  lineCount: number;
  resellerName: string;
  providerName: string;
  quickbooksCustomerId: string | null;
  exportReference: string;
}

export interface Movement {
  createdAt: Date | string;
  kind: string;
  method: string | null;
  reference: string | null;
  amount: string;
  fee: string;
  balanceAfter: string;
}

const MARGIN = 48;
const ROW = 15;
/** The table's columns: title, width and whether figures are right-aligned. 499 points, an A4 page less the margins. */
const COLUMNS: { title: string; width: number; figure?: boolean }[] = [
  { title: 'Date (UTC)', width: 82 },
  { title: 'Kind', width: 58 },
  { title: 'Method', width: 64 },
  { title: 'Reference', width: 107 },
  { title: 'Amount', width: 64, figure: true },
  { title: 'Fee', width: 50, figure: true },
  { title: 'Balance after', width: 74, figure: true },
];

const day = (d: Date) => d.toISOString().slice(0, 10);
const stamp = (d: Date | string) => new Date(d).toISOString().slice(0, 16).replace('T', ' ');

export function newInvoiceDocument(head: InvoiceHead, compress = true): PDFKit.PDFDocument {
  return new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    compress,
    bufferPages: false,
    info: { Title: `Invoice ${invoiceFileNumber(head.number)}`, Subject: `${head.resellerName} ${head.month}`, Author: head.providerName },
  });
}

/** Writes the invoice into `doc` and ends it; `movements` come in batches, in the ledger's order. */
export async function writeInvoice(doc: PDFKit.PDFDocument, head: InvoiceHead, logo: Buffer | undefined, movements: AsyncIterable<Movement[]>) {
  const left = MARGIN;
  const right = doc.page.width - MARGIN;
  const width = right - left;
  let top = MARGIN;
  if (logo) {
    try {
      doc.image(logo, left, top, { fit: [140, 56] });
    } catch {
      // A picture pdfkit cannot read (an unusual PNG variant): the invoice goes out without it.
    }
  }
  doc.font('Helvetica-Bold').fontSize(20).text('INVOICE', left, top, { width, align: 'right' });
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`No. ${invoiceFileNumber(head.number)}`, left, top + 26, { width, align: 'right' });
  top += 72;

  const pair = (label: string, value: string, x: number, y: number, w = 240) => {
    doc.font('Helvetica-Bold').fontSize(9).text(label, x, y, { width: 95, lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(value, x + 95, y, { width: w - 95, lineBreak: false, ellipsis: true });
  };
  doc.font('Helvetica-Bold').fontSize(9).text('From', left, top);
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(head.providerName, left, top + 12, { width: 230 });
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .text('Bill to', left + 260, top);
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(head.resellerName, left + 260, top + 12, { width: 239 });
  top += 44;
  pair('Invoice number', invoiceFileNumber(head.number), left, top);
  pair('QuickBooks ID', head.quickbooksCustomerId ?? '-', left + 260, top);
  pair('Period', `${day(head.periodStart)} to ${day(new Date(head.periodEnd.getTime() - 86_400_000))}`, left, top + 14);
  pair('Customer', head.exportReference, left + 260, top + 14);
  pair('Issued', day(head.issuedAt), left, top + 28);
  pair('Due', head.dueDate, left + 260, top + 28);
  top += 52;

  const balances: [string, string][] = [
    ['Opening balance', head.openingBalance],
    ['Credits', head.credits],
    ['Debits', head.debits],
    ['Closing balance', head.closingBalance],
  ];
  const boxWidth = width / balances.length;
  balances.forEach(([label, value], i) => {
    const x = left + i * boxWidth;
    doc
      .rect(x, top, boxWidth - 6, 36)
      .fillAndStroke('#f2f4f7', '#c5cbd3')
      .fillColor('#000');
    doc
      .font('Helvetica')
      .fontSize(8)
      .text(label, x + 6, top + 5, { width: boxWidth - 18 });
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(`${money(value)} ${head.currency}`, x + 6, top + 17, { width: boxWidth - 18 });
  });
  top += 50;

  const bottom = () => doc.page.height - MARGIN - 20;
  const header = (y: number) => {
    doc.rect(left, y, width, ROW).fill('#dfe3e8').fillColor('#000');
    let x = left;
    doc.font('Helvetica-Bold').fontSize(8);
    for (const c of COLUMNS) {
      doc.text(c.title, x + 3, y + 4, { width: c.width - 6, align: c.figure ? 'right' : 'left', lineBreak: false });
      x += c.width;
    }
    return y + ROW;
  };
  let y = header(top);
  let page = 1;
  const footer = () => {
    // Below the bottom margin, where pdfkit would otherwise start a page of its own.
    const { bottom: kept } = doc.page.margins;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(7).fillColor('#555');
    doc.text(`Invoice ${invoiceFileNumber(head.number)} - page ${page}`, left, doc.page.height - MARGIN, { width, align: 'center', lineBreak: false });
    doc.fillColor('#000');
    doc.page.margins.bottom = kept;
  };
  let shaded = false;
  let written = 0;
  for await (const batch of movements) {
    for (const m of batch) {
      if (y + ROW > bottom()) {
        footer();
        doc.addPage();
        page += 1;
        y = header(MARGIN);
      }
      if (shaded) doc.rect(left, y, width, ROW).fill('#f6f7f9').fillColor('#000');
      shaded = !shaded;
      const cells = [stamp(m.createdAt), m.kind, m.method ?? '', m.reference ?? '', money(m.amount), money(m.fee), money(m.balanceAfter)];
      let x = left;
      doc.font('Helvetica').fontSize(8);
      COLUMNS.forEach((c, i) => {
        doc.text(cells[i], x + 3, y + 4, { width: c.width - 6, align: c.figure ? 'right' : 'left', lineBreak: false, ellipsis: true, height: ROW });
        x += c.width;
      });
      y += ROW;
      written += 1;
    }
  }
  if (written === 0) {
    doc
      .font('Helvetica-Oblique')
      .fontSize(9)
      .text('No movements in this period.', left + 3, y + 5, { width });
    y += ROW + 4;
  }

  if (y + 7 * ROW > bottom()) {
    footer();
    doc.addPage();
    page += 1;
    y = MARGIN;
  }
  y += 10;
  const totals: [string, string][] = [
    ['Movements', String(head.lineCount)],
    ['Opening balance', money(head.openingBalance)],
    ['Credits', money(head.credits)],
    ['Debits', money(head.debits)],
    ['Fees paid on top', money(head.fees)],
    [`Closing balance (${head.currency})`, money(head.closingBalance)],
  ];
  for (const [label, value] of totals) {
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .text(label, right - 260, y, { width: 160, lineBreak: false });
    doc
      .font('Helvetica')
      .fontSize(9)
      .text(value, right - 100, y, { width: 100, align: 'right', lineBreak: false });
    y += ROW - 2;
  }
  footer();
  doc.end();
}
