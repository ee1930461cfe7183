// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyModule } from './lazyModule';

afterEach(cleanup);

function Greeting({ name }: { name: string }) {
  return <p data-testid="greeting">Hello {name}</p>;
}

function Fallback({ seen }: { seen: () => void }) {
  seen();
  return <p data-testid="fallback">Loading</p>;
}

describe('a lazily loaded screen', () => {
  it('suspends while its code is on its way, then draws it with its props', async () => {
    let arrive!: (m: { default: typeof Greeting }) => void;
    const screenModule = lazyModule(() => new Promise<{ default: typeof Greeting }>((resolve) => (arrive = resolve)));
    const seen = vi.fn();
    render(
      <Suspense fallback={<Fallback seen={seen} />}>
        <screenModule.Component name="Ada" />
      </Suspense>,
    );
    expect(screen.getByTestId('fallback')).toBeTruthy();
    expect(screenModule.loaded()).toBeUndefined();
    await act(async () => arrive({ default: Greeting }));
    expect((await screen.findByTestId('greeting')).textContent).toBe('Hello Ada');
    expect(screenModule.loaded()).toBe(Greeting);
  });

  it('draws preloaded code at once, without showing the fallback', async () => {
    const importer = vi.fn(async () => ({ default: Greeting }));
    const screenModule = lazyModule(importer);
    await screenModule.load();
    const seen = vi.fn();
    // No await between the render and the checks: React.lazy would still be suspended here.
    render(
      <Suspense fallback={<Fallback seen={seen} />}>
        <screenModule.Component name="Grace" />
      </Suspense>,
    );
    expect(screen.getByTestId('greeting').textContent).toBe('Hello Grace');
    expect(seen).not.toHaveBeenCalled();
    // One download, shared by every later call.
    await screenModule.load();
    expect(importer).toHaveBeenCalledTimes(1);
  });

  it('tries a failed download again on the next call', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: Greeting });
    const screenModule = lazyModule(importer);
    await expect(screenModule.load()).rejects.toThrow('offline');
    expect(screenModule.loaded()).toBeUndefined();
    await expect(screenModule.load()).resolves.toEqual({ default: Greeting });
    expect(importer).toHaveBeenCalledTimes(2);
    expect(screenModule.loaded()).toBe(Greeting);
  });
});
