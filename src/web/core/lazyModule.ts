/**
 * A screen's code in a chunk of its own, drawn without a wait once it has arrived. `React.lazy` suspends on its
 * first render even when the module is already in (its promise's callbacks run later), and React then holds the
 * Suspense fallback on screen for a while (about 300 ms) before it shows the content. Code preloaded before it is
 * drawn (a page load's own screen, a menu entry under the pointer) would pay that wait for nothing.
 *
 * `Component` draws the module's component directly once `load` has settled, and suspends (through `React.lazy`)
 * only while it has not.
 */
import { createElement, lazy, type ComponentType } from 'react';

export interface LazyModule<P extends object> {
  /** Starts the download; the first call starts it, later ones share it (a failed one may be tried again). */
  load: () => Promise<{ default: ComponentType<P> }>;
  /** The module's component: drawn at once when loaded, else suspends until it is. */
  Component: ComponentType<P>;
  /** The module's component once it has arrived. */
  loaded: () => ComponentType<P> | undefined;
}

export function lazyModule<P extends object>(importer: () => Promise<{ default: ComponentType<P> }>): LazyModule<P> {
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  let resolved: ComponentType<P> | undefined;
  const load = () =>
    (pending ??= importer().then(
      (module) => {
        resolved = module.default;
        return module;
      },
      (error: unknown) => {
        pending = undefined; // a later render may try again
        throw error;
      },
    ));
  // Settled by then: a thenable that answers at once, so React.lazy does not suspend either.
  const Lazy = lazy<ComponentType<P>>(() => {
    const settled = resolved;
    return settled ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: settled }) } as never) : load();
  });
  function Component(props: P) {
    return createElement((resolved ?? Lazy) as ComponentType<P>, props);
  }
  return { load, Component, loaded: () => resolved };
}
