// Parsed JSON (response bodies, openapi.json, synthesized templates) has no static shape: tests read
// it by path and assert on what they find, so it is typed as loosely as the JSON itself.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above; the one place tests opt out of types
export type Json = any;
