// The few React APIs src/react.ts uses, so the library builds without @types/react. Consumers'
// types never reference these (the hook's signature uses only this package's types).
declare module 'react' {
  export function useRef<T>(initial: T): { current: T };
  export function useState<T>(initial: T): [T, (value: T) => void];
  export function useEffect(effect: () => void | (() => void), deps?: readonly unknown[]): void;
  export function useCallback<T extends (...args: never[]) => unknown>(callback: T, deps: readonly unknown[]): T;
}
