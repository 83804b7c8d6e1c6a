// @fincore/sdk/react: useFincoreLink, the Link modal as a React hook (React 17+ is a peer dependency).
//
//   const { open, ready, error } = useFincoreLink({ baseUrl, token: linkToken, onSuccess(publicToken) { ... } });
//   <button disabled={!ready} onClick={open}>Connect a bank</button>
//
// The script loads once the token is known; the handler is rebuilt when baseUrl or token change and
// destroyed on unmount. Callbacks may change on every render: the latest ones are called.
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadLinkSdk, type LinkHandler, type LinkOptions } from './link.js';

export interface UseFincoreLinkOptions extends Omit<LinkOptions, 'token'> {
  /** Your deployment's base URL; the SDK loads from {baseUrl}/link/sdk.js. */
  baseUrl: string;
  /** The link token; null while your server is still creating it. */
  token: string | null;
}

export interface UseFincoreLinkResult {
  /** Opens Link (does nothing until ready). */
  open: () => void;
  /** Closes Link as if the user had. */
  exit: () => void;
  /** The SDK is loaded and a handler exists for the current token. */
  ready: boolean;
  /** Loading the SDK or creating the handler failed. */
  error: Error | null;
}

export function useFincoreLink(options: UseFincoreLinkOptions): UseFincoreLinkResult {
  const { baseUrl, token } = options;
  const callbacks = useRef(options);
  callbacks.current = options;
  const handler = useRef<LinkHandler | null>(null);
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  useEffect(() => {
    if (!token) return undefined;
    let cancelled = false;
    setReady(false);
    setError(null);
    loadLinkSdk(baseUrl).then(
      (sdk) => {
        if (cancelled) return;
        try {
          handler.current = sdk.create({
            token,
            onSuccess: (publicToken, metadata) => callbacks.current.onSuccess(publicToken, metadata),
            onExit: (exitError, metadata) => callbacks.current.onExit?.(exitError, metadata),
            onEvent: (eventName, metadata) => callbacks.current.onEvent?.(eventName, metadata),
          });
          setReady(true);
        } catch (cause) {
          setError(cause instanceof Error ? cause : new Error(String(cause)));
        }
      },
      (cause: unknown) => {
        if (!cancelled) setError(cause instanceof Error ? cause : new Error(String(cause)));
      },
    );
    return () => {
      cancelled = true;
      handler.current?.destroy();
      handler.current = null;
      setReady(false);
    };
  }, [baseUrl, token]);

  const open = useCallback(() => handler.current?.open(), []);
  const exit = useCallback(() => handler.current?.exit(), []);
  return { open, exit, ready, error };
}
