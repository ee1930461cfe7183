/**
 * The OpenAPI document rendered by Swagger UI: its own chunk, downloaded only when the documentation page
 * opens. It reads the document it is given (fetched with the session's token) and sends no requests itself.
 */
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import { useEffect } from 'react';
import { useAppSelector } from '@web/core/hooks';
import { selectDarkMode } from '@web/core/preferencesSlice';

export default function ApiReference({ spec }: { spec: Record<string, unknown> }) {
  const darkMode = useAppSelector(selectDarkMode);
  // Swagger UI's dark theme keys on this class of the root element; it is removed when the page closes.
  useEffect(() => {
    document.documentElement.classList.toggle('dark-mode', darkMode);
    return () => document.documentElement.classList.remove('dark-mode');
  }, [darkMode]);
  return (
    <div className="portal-api-reference" data-testid="api-reference">
      {/* Calls are made with an integration's own credentials, not from the portal: no "Try it out". */}
      <SwaggerUI spec={spec} supportedSubmitMethods={[]} docExpansion="list" defaultModelsExpandDepth={0} />
    </div>
  );
}
