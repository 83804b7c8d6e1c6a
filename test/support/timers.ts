// Waiting on what the code under test does with time, instead of sleeping for a guessed while.

type SetTimeout = typeof globalThis.setTimeout;

/**
 * Resolves as soon as the code under test arms a timer of exactly `delayMs` (a real-time Wait state
 * or retry delay, say): the test then knows the code has reached that wait. Rejects when no such
 * timer is armed within `timeoutMs`. Every timer still runs as usual.
 */
export function timerArmed(delayMs: number, { timeoutMs = 5_000 } = {}): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const original: SetTimeout = globalThis.setTimeout;
    const deadline = original(() => {
      spy.mockRestore();
      reject(new Error(`no ${delayMs} ms timer was armed within ${timeoutMs} ms`));
    }, timeoutMs);
    const spy = jest.spyOn(globalThis, 'setTimeout').mockImplementation(((
      handler: (...args: unknown[]) => void,
      timeout?: number,
      ...args: unknown[]
    ) => {
      const timer = original(handler, timeout, ...args);
      if (timeout === delayMs) {
        clearTimeout(deadline);
        spy.mockRestore();
        resolve();
      }
      return timer;
    }) as unknown as SetTimeout);
  });
}
