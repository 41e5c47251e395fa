import {
  lazy as reactLazy,
  type ComponentProps,
  type ComponentType,
  type LazyExoticComponent,
} from 'react';

/**
 * A page chunk that did not load (network error, server down, a deploy removed the old file).
 * `retry()` arms a fresh import for the next render: React.lazy keeps a failed import forever,
 * so the error boundary (components/ErrorBoundary.tsx) calls this before rendering again.
 */
export class ChunkLoadError extends Error {
  constructor(
    cause: unknown,
    readonly retry: () => void,
  ) {
    super('page chunk failed to load', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}

/** A lazily loaded page that can start fetching its chunk before it is first rendered. */
export type LazyPage<P> = ComponentType<P> & {
  /** Starts the import; resolves once it is done (loaded or failed: it never rejects). */
  preload: () => Promise<void>;
};

/**
 * React.lazy for page chunks, with a retry: a failed import throws a ChunkLoadError, whose
 * `retry()` swaps in a new lazy component that imports again when next rendered; `preload()`
 * starts the import early. A page whose chunk a preload has already brought renders at once,
 * without suspending: a suspension shows the loading state and React then holds the page back
 * for its fallback throttle (300 ms) before revealing it (issue 21: the first screen's text).
 */
// `any` as in React.lazy's own signature: the page's props are whatever its component takes.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazy<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyPage<ComponentProps<T>> {
  let current: LazyExoticComponent<T>;
  let loaded: T | null = null;
  const arm = () => {
    current = reactLazy(() =>
      load().catch((err: unknown) => {
        throw new ChunkLoadError(err, arm);
      }),
    );
  };
  arm();
  function LazyPage(props: ComponentProps<T>) {
    const Page = (loaded ?? current) as ComponentType<ComponentProps<T>>;
    return <Page {...props} />;
  }
  // The browser keeps one copy of a module: a fetch started here is the one the render awaits.
  // A failure here is left to that render, which shows the chunk error with its retry.
  LazyPage.preload = () =>
    load().then(
      (m) => {
        loaded = m.default;
      },
      () => undefined,
    );
  return LazyPage;
}
