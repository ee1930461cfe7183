/**
 * The privacy policy as data: paragraphs of message ids (an optional headline, an optional summary and a body
 * that may use the rich-text tags of PrivacyPolicy.tsx) and the date of the last revision.
 */

/** The policy's last revision, a calendar date (shown in the reader's locale). */
export const POLICY_REVISED = '2024-07-14';

export interface PolicyParagraph {
  /** Stable name: the paragraph's element id and test id. */
  key: string;
  headline?: string;
  summary?: string;
  body: string;
}

const section = (key: string, withSummary = true): PolicyParagraph => ({
  key,
  headline: `privacy.${key}.headline`,
  ...(withSummary ? { summary: `privacy.${key}.summary` } : {}),
  body: `privacy.${key}.body`,
});

export const POLICY_PARAGRAPHS: readonly PolicyParagraph[] = [
  { key: 'intro', body: 'privacy.intro.body' },
  section('roles'),
  section('data'),
  section('purposes'),
  section('sharing'),
  section('transfers'),
  section('retention'),
  section('cookies'),
  section('security'),
  section('rights'),
  section('minors'),
  // Without a configured address the body points to the product website instead (PrivacyPolicy.tsx).
  { key: 'contact', headline: 'privacy.contact.headline', summary: 'privacy.contact.summary', body: 'privacy.contact.bodyEmail' },
  section('changes', false),
];
