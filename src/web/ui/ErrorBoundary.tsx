import { NonIdealState } from '@blueprintjs/core';
import { ErrorIcon } from '@blueprintjs/icons';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

interface Props {
  children: ReactNode;
  /** A new key (e.g. the next address) clears the error, so leaving a broken screen recovers. */
  resetKey?: string;
}

/**
 * Keeps one failing screen (a render error, a lazy chunk that did not load) from blanking the whole portal:
 * the top bar and menu stay, and the page area shows the generic error.
 */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('A screen failed to render', error, info.componentStack);
  }

  componentDidUpdate(previous: Props) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div data-testid="page-error">
        <NonIdealState icon={<ErrorIcon size={48} />} description={<FormattedMessage id="app.error.generic" />} />
      </div>
    );
  }
}
