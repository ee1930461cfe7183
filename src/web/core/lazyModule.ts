/**
 * A screen's code in a chunk of its own, drawn without a wait once it has arrived, and without suspending while it
 * has not. `React.lazy` suspends on its first render even when the module is already in (its promise's callbacks
 * run later); and when suspended code arrives, React reveals it as a retry, which it holds back until 300 ms after
 * the Suspense fallback was first shown, and renders in slices between other work. A page load of a list met both:
 * its rows were drawn and waited for that timer.
 *
 * `Component` draws the module's component directly once `load` has settled; until then it draws `Fallback` and
 * starts the download, and the arrival is an ordinary update of that component. A failed download is thrown from
 * the next render (to the nearest error boundary); the component drawn again later tries again.
 */
import { createElement, useEffect, useReducer, useState, type ComponentType } from 'react';

export interface LazyModule<P extends object> {
  /** Starts the download; the first call starts it, later ones share it (a failed one may be tried again). */
  load: () => Promise<{ default: ComponentType<P> }>;
  /** The module's component: drawn at once when loaded, else the fallback until it is. */
  Component: ComponentType<P>;
  /** The module's component once it has arrived. */
  loaded: () => ComponentType<P> | undefined;
}

const Nothing = () => null;

export function lazyModule<P extends object>(importer: () => Promise<{ default: ComponentType<P> }>, Fallback: ComponentType = Nothing): LazyModule<P> {
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
  function Component(props: P) {
    const [, arrived] = useReducer((n: number) => n + 1, 0);
    const [failed, setFailed] = useState<{ error: unknown }>();
    const current = resolved;
    useEffect(() => {
      if (!current) load().then(arrived, (error: unknown) => setFailed({ error }));
    }, [current]);
    if (current) return createElement(current, props);
    if (failed) throw failed.error;
    return createElement(Fallback);
  }
  return { load, Component, loaded: () => resolved };
}
