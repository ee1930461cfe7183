import nodemailer from 'nodemailer';
import type { Mailer } from './index';

/** SMTP through nodemailer; a failure rejects, and the caller decides whether the user hears of it. */
export function createSmtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send({ to, subject, text, html }) {
      await transport.sendMail({ from, to, subject, text, html });
    },
  };
}
