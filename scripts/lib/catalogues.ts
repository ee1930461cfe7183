/**
 * The state of the message catalogues i18n/*.json against the English source: the English catalogue, under which
 * stand the English labels of the entity schemas (`x-entity.labels`, `x-label`). A schema's label that a catalogue
 * lacks is marked for translation: the portal shows its English text until the catalogue has one. Once settled, a
 * schema's labels also stand in the English catalogue (the complete source translators and tools read), with the
 * schema's text. Any other English message a catalogue lacks, any message no English source has, and an English
 * catalogue text that differs from its schema's label are errors.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { schemaMessages, type EntitySchema } from '@shared/schema';
import { LOCALES } from '@web/core/locales';

export interface CatalogueReport {
  /** Per language, the schema labels it does not translate yet (shown in English). */
  untranslated: Record<string, string[]>;
  /** Per language, messages of the English catalogue it lacks. */
  missing: Record<string, string[]>;
  /** Per language, messages no English source has. */
  unknown: Record<string, string[]>;
  /** Schema labels the English catalogue gives another text. */
  conflicting: string[];
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

export function catalogueReport(root: string): CatalogueReport {
  const schemas = readdirSync(join(root, 'schemas'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => readJson<EntitySchema>(join(root, 'schemas', f)));
  const en = readJson<Record<string, string>>(join(root, 'i18n', 'en.json'));
  const schemaTexts = schemaMessages(schemas);
  const labels = Object.keys(schemaTexts).filter((id) => !(id in en));
  const conflicting = Object.keys(schemaTexts).filter((id) => id in en && en[id] !== schemaTexts[id]);
  const report: CatalogueReport = { untranslated: {}, missing: {}, unknown: {}, conflicting };
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const own = readJson<Record<string, string>>(join(root, 'i18n', `${locale}.json`));
    report.untranslated[locale] = labels.filter((id) => !(id in own));
    report.missing[locale] = Object.keys(en).filter((id) => !(id in own));
    report.unknown[locale] = Object.keys(own).filter((id) => !(id in en) && !labels.includes(id));
  }
  return report;
}

/** The report as lines of text, and whether it holds an error (untranslated labels are none). */
export function describeReport(report: CatalogueReport): { text: string; failed: boolean } {
  const lines: string[] = [];
  let failed = false;
  for (const locale of Object.keys(report.untranslated)) {
    const { untranslated, missing, unknown } = { untranslated: report.untranslated[locale], missing: report.missing[locale], unknown: report.unknown[locale] };
    if (untranslated.length) lines.push(`${locale}: ${untranslated.length} to translate (shown in English meanwhile): ${untranslated.join(', ')}`);
    if (missing.length) lines.push(`${locale}: missing from the catalogue: ${missing.join(', ')}`);
    if (unknown.length) lines.push(`${locale}: not an English message: ${unknown.join(', ')}`);
    failed ||= missing.length > 0 || unknown.length > 0;
  }
  if (report.conflicting.length) {
    lines.push(`en: the catalogue and the schema label differ: ${report.conflicting.join(', ')}`);
    failed = true;
  }
  return { text: lines.length ? lines.join('\n') : 'Every catalogue is complete.', failed };
}
