/**
 * Defines the `<altcha-widget>` element, loaded only when the join form opens. The `external` build keeps its
 * proof-of-work in a worker file of our own and its styles in a stylesheet, so nothing needs `blob:` scripts
 * or inline code under the Content-Security-Policy. Only the algorithm the server's challenges use is registered.
 */
import 'altcha/external';
import 'altcha/altcha.css';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
// The widget's own texts in the portal's languages (English is built in).
import 'altcha/i18n/de';
import 'altcha/i18n/es-es';
import 'altcha/i18n/he';
import 'altcha/i18n/ru';
import 'altcha/i18n/zh-cn';

globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());
