// The console's roles, weakest first (functions/core/console-permissions.ts orders and applies them).
// A module of its own, without zod, because the console's web app reads it too.
export const CONSOLE_ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];
