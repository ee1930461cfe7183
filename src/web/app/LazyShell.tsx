import { lazy, Suspense } from 'react';
import { Loading } from '@web/ui/Loading';

/** The frame's code; the first call starts its download, the later ones share it. */
export const loadShell = () => import('./Shell').then((m) => ({ default: m.Shell }));

// The frame behind the sign-in (menu, top bar, search) is its own chunk: the sign-in page does not download it.
const Shell = lazy(loadShell);

/** The portal's frame, fetched when a signed-in user first needs it. */
export function LazyShell() {
  return (
    <Suspense fallback={<Loading />}>
      <Shell />
    </Suspense>
  );
}
