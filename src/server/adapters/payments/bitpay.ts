/**
 * The sandbox BitPay: no coins move. An invoice is `new` until `confirmSeconds` after it was made, then `confirmed`;
 * an invoice for an amount (fee included) whose cents are 66 (12.66, 66.66) expires instead, as an unpaid one would. The invoice id
 * carries its creation time and fate, so invoices survive a restart of the server.
 */
import { randomBytes } from 'node:crypto';
import type { CryptoGateway, Invoice } from '.';

export function createSandboxBitPay(confirmSeconds: number): CryptoGateway {
  const invoice = (id: string): Invoice => {
    const m = /^sbx_(\d+)_([ce])_[0-9a-f]+$/.exec(id);
    if (!m) return { id, status: 'invalid', url: '' };
    const due = Number(m[1]) + confirmSeconds * 1000 <= Date.now();
    return { id, status: !due ? 'new' : m[2] === 'c' ? 'confirmed' : 'expired', url: `https://bitpay.invalid/i/${id}` };
  };
  return {
    name: 'sandbox',
    async createInvoice({ amount }) {
      const fate = /\.66$/.test(amount) ? 'e' : 'c';
      return invoice(`sbx_${Date.now()}_${fate}_${randomBytes(8).toString('hex')}`);
    },
    async getInvoice(id) {
      return invoice(id);
    },
  };
}
