import { Classes, H2, H3, H4 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage } from 'react-intl';
import { PRIVACY_CONTACT_EMAIL, PRODUCT_URL } from '@web/core/config';
import { POLICY_PARAGRAPHS, POLICY_REVISED, type PolicyParagraph } from './policy';
import './privacy.css';

/** The tags a policy message may use. */
const RICH_TEXT = {
  p: (chunks: ReactNode[]) => <p>{chunks}</p>,
  ul: (chunks: ReactNode[]) => <ul>{chunks}</ul>,
  li: (chunks: ReactNode[]) => <li>{chunks}</li>,
  b: (chunks: ReactNode[]) => <strong>{chunks}</strong>,
};

const [year, month, day] = POLICY_REVISED.split('-').map(Number);
/** Noon UTC, so the calendar date reads the same in every time zone. */
const revised = new Date(Date.UTC(year, month - 1, day, 12));

function Body({ paragraph }: { paragraph: PolicyParagraph }) {
  if (paragraph.key === 'contact') {
    return PRIVACY_CONTACT_EMAIL ? (
      <FormattedMessage
        id="privacy.contact.bodyEmail"
        values={{ ...RICH_TEXT, email: <a href={`mailto:${PRIVACY_CONTACT_EMAIL}`}>{PRIVACY_CONTACT_EMAIL}</a> }}
      />
    ) : (
      <FormattedMessage id="privacy.contact.bodyWebsite" values={{ ...RICH_TEXT, link: (chunks: ReactNode[]) => <a href={PRODUCT_URL}>{chunks}</a> }} />
    );
  }
  return <FormattedMessage id={paragraph.body} values={RICH_TEXT} />;
}

/** The privacy policy: headline, revision date and paragraphs. The login screen and /privacy-policy both show it. */
export function PrivacyPolicy({ headingLevel = 2 }: { headingLevel?: 2 | 3 }) {
  const Headline = headingLevel === 2 ? H2 : H3;
  return (
    <article className="portal-privacy" data-testid="privacy-policy" aria-labelledby="privacy-title">
      <Headline id="privacy-title">
        <FormattedMessage id="privacy.title" />
      </Headline>
      <p className={`portal-privacy-revised ${Classes.TEXT_MUTED}`} data-testid="privacy-revised">
        <FormattedMessage id="privacy.revised" values={{ date: <FormattedDate value={revised} year="numeric" month="long" day="numeric" timeZone="UTC" /> }} />
      </p>
      {POLICY_PARAGRAPHS.map((paragraph) => (
        <section key={paragraph.key} id={`privacy-${paragraph.key}`} className="portal-privacy-section" data-testid={`privacy-${paragraph.key}`}>
          {paragraph.headline && (
            <H4>
              <FormattedMessage id={paragraph.headline} />
            </H4>
          )}
          {paragraph.summary && (
            <p className="portal-privacy-summary">
              <FormattedMessage id={paragraph.summary} />
            </p>
          )}
          <div className="portal-privacy-body">
            <Body paragraph={paragraph} />
          </div>
        </section>
      ))}
    </article>
  );
}
