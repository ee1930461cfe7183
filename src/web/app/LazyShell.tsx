import { lazyModule } from '@web/core/lazyModule';
import { Loading } from '@web/ui/Loading';

// The frame behind the sign-in (menu, top bar, search) is its own chunk: the sign-in page does not download it.
const shell = lazyModule(async () => ({ default: (await import('./Shell')).Shell }), Loading);
const Shell = shell.Component;

/** The frame's code; the first call starts its download, the later ones share it. */
export const loadShell = shell.load;

/** The portal's frame, fetched when a signed-in user first needs it. */
export function LazyShell() {
  return <Shell />;
}
