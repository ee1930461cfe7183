import { lazy, Suspense, useEffect, useState } from 'react';

const PaletteOmnibar = lazy(() => import('./PaletteOmnibar'));

/** Ctrl+K or Cmd+K, from anywhere in the shell. */
export function useCommandPaletteKey(open: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
}

/** The keyboard command palette: jumps to a screen, or to an entity found by id or name. Loaded when first opened. */
export function CommandPalette({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const [opened, setOpened] = useState(isOpen);
  if (isOpen && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <PaletteOmnibar isOpen={isOpen} onClose={onClose} />
    </Suspense>
  );
}
