/**
 * One toaster for the app, created on first use. It renders in its own React root, so messages are passed in
 * already translated.
 */
import { OverlayToaster, Position, type Toaster, type ToastProps } from '@blueprintjs/core';
import { createRoot, type Root } from 'react-dom/client';

let toaster: Promise<Toaster> | null = null;
let root: { root: Root; container: Element | DocumentFragment } | null = null;

export function showToast(props: ToastProps): void {
  toaster ??= OverlayToaster.create(
    { position: Position.TOP },
    {
      domRenderer: (element, container) => {
        const created = createRoot(container);
        root = { root: created, container };
        created.render(element);
      },
    },
  );
  void toaster.then((t) => t.show(props));
}

/** Removes the toaster and its pending timers; the next toast makes a new one. A page's teardown calls it. */
export function disposeToaster(): void {
  root?.root.unmount();
  if (root?.container instanceof Element) root.container.remove();
  root = null;
  toaster = null;
}
