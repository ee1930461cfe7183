import { ErrorIcon } from '@blueprintjs/icons';
import { Callout, H2, H3, NonIdealState } from '@blueprintjs/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Loading } from '@web/ui/Loading';
import { usePageTitle } from '@web/engine/pageTitle';
import { useOpenApiDocumentQuery } from './docsApi';

const ApiReference = lazy(() => import('./ApiReference'));

const code = (chunks: ReactNode[]) => <code>{chunks}</code>;

/** The integration recommendation, then the live OpenAPI document of this server. */
export default function DocumentationPage() {
  const intl = useIntl();
  usePageTitle(intl.formatMessage({ id: 'docs.title' }));
  const { data: spec, isError } = useOpenApiDocumentQuery();
  return (
    <div className="portal-page portal-docs" data-testid="documentation">
      <header className="portal-page-header">
        <H2>
          <FormattedMessage id="docs.title" />
        </H2>
      </header>
      <section aria-labelledby="docs-integration">
        <H3 id="docs-integration">
          <FormattedMessage id="docs.integration.title" />
        </H3>
        <p>
          <FormattedMessage id="docs.integration.intro" />
        </p>
        <ol>
          <li>
            <FormattedMessage id="docs.integration.user" />
          </li>
          <li>
            <FormattedMessage id="docs.integration.token" values={{ code }} />
          </li>
          <li>
            <FormattedMessage id="docs.integration.lists" values={{ code }} />
          </li>
          <li>
            <FormattedMessage id="docs.integration.errors" values={{ code }} />
          </li>
          <li>
            <FormattedMessage id="docs.integration.limits" />
          </li>
        </ol>
        <Callout>
          <FormattedMessage id="docs.integration.document" values={{ code }} />
        </Callout>
      </section>
      <section aria-labelledby="docs-reference">
        <H3 id="docs-reference">
          <FormattedMessage id="docs.reference.title" />
        </H3>
        {isError ? (
          <NonIdealState icon={<ErrorIcon size={48} />} title={<FormattedMessage id="app.error.generic" />} />
        ) : spec ? (
          <Suspense fallback={<Loading />}>
            <ApiReference spec={spec} />
          </Suspense>
        ) : (
          <Loading />
        )}
      </section>
    </div>
  );
}
