import { lazy, Suspense } from 'react';
import { Loading } from '@web/ui/Loading';

// The frame behind the sign-in (menu, top bar, search) is its own chunk: the sign-in page does not download it.
const Shell = lazy(() => import('./Shell').then((m) => ({ default: m.Shell })));

/** The portal's frame, fetched when a signed-in user first needs it. */
export function LazyShell() {
  return (
    <Suspense fallback={<Loading />}>
      <Shell />
    </Suspense>
  );
}
