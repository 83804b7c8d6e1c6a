// What a sandbox login does in Link: the simulator's credential and MFA rules.

export type SandboxOutcome = 'connected' | 'mfa' | 'locked' | 'invalid';

export const SANDBOX_PASSWORD = 'pass_good';
export const SANDBOX_MFA_CODE = '1234';
export const SANDBOX_MFA_PROMPT = 'Enter the 4-digit code sent to your phone. (Sandbox: 1234.)';

/**
 * user_good / pass_good connects; user_mfa / pass_good asks for a code; user_locked ends in the item
 * error state; anything else is invalid credentials. `user_good_<suffix>` (lower-case letters and
 * digits) also connects, with different deterministic data per suffix, so one test suite can hold
 * several distinct sandbox logins.
 */
export function sandboxOutcome(username: string, password: string): SandboxOutcome {
  if (username === 'user_locked') return 'locked';
  if (password !== SANDBOX_PASSWORD) return 'invalid';
  if (username === 'user_mfa') return 'mfa';
  if (/^user_good(_[a-z0-9]{1,32})?$/.test(username)) return 'connected';
  return 'invalid';
}

export function isCorrectMfaCode(code: string): boolean {
  return code.trim() === SANDBOX_MFA_CODE;
}
