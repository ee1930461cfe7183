/** `npm run i18n:check`: lists the messages each catalogue has yet to translate; fails only on a real gap. */
import { fileURLToPath } from 'node:url';
import { catalogueReport, describeReport } from './lib/catalogues';

const { text, failed } = describeReport(catalogueReport(fileURLToPath(new URL('../', import.meta.url))));
console.log(text);
process.exitCode = failed ? 1 : 0;
