/**
 * One toaster for the app, created on first use. It renders in its own React root, so messages are passed in
 * already translated.
 */
import { OverlayToaster, Position, type Toaster, type ToastProps } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;

export function showToast(props: ToastProps): void {
  toaster ??= OverlayToaster.create({ position: Position.TOP });
  void toaster.then((t) => t.show(props));
}
