/** The error a call rejects with; fails the test when the call succeeds. */
export async function rejectionOf<E = Error>(call: Promise<unknown>): Promise<E> {
  try {
    await call;
  } catch (err) {
    return err as E;
  }
  throw new Error('expected the call to be refused, and it succeeded');
}
