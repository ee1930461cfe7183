// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, Suspense, type ReactNode } from 'react';
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
  it('draws its fallback while its code is on its way, without suspending, then draws it with its props', async () => {
    let arrive!: (m: { default: typeof Greeting }) => void;
    const screenModule = lazyModule(
      () => new Promise<{ default: typeof Greeting }>((resolve) => (arrive = resolve)),
      () => <p data-testid="own-fallback">On its way</p>,
    );
    const suspended = vi.fn();
    render(
      <Suspense fallback={<Fallback seen={suspended} />}>
        <screenModule.Component name="Ada" />
      </Suspense>,
    );
    expect(screen.getByTestId('own-fallback')).toBeTruthy();
    expect(screenModule.loaded()).toBeUndefined();
    await act(async () => arrive({ default: Greeting }));
    expect((await screen.findByTestId('greeting')).textContent).toBe('Hello Ada');
    expect(screenModule.loaded()).toBe(Greeting);
    // A Suspense boundary's fallback would make React hold the arrival back (its 300 ms reveal throttle).
    expect(suspended).not.toHaveBeenCalled();
  });

  it('throws a failed download to the error boundary, and tries again when drawn again', async () => {
    const importer = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ default: Greeting });
    const screenModule = lazyModule(importer);
    class Boundary extends Component<{ children: ReactNode }, { error?: Error }> {
      state: { error?: Error } = {};
      static getDerivedStateFromError(error: Error) {
        return { error };
      }
      render() {
        return this.state.error ? <p data-testid="failed">{this.state.error.message}</p> : this.props.children;
      }
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const draw = () =>
      render(
        <Boundary>
          <screenModule.Component name="Ada" />
        </Boundary>,
      );
    const first = draw();
    expect((await screen.findByTestId('failed')).textContent).toBe('offline');
    first.unmount();
    draw();
    expect((await screen.findByTestId('greeting')).textContent).toBe('Hello Ada');
    expect(importer).toHaveBeenCalledTimes(2);
    vi.restoreAllMocks();
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
