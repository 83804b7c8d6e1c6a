// The local runtime's files hold every tenant's rows, cursor secrets and the key that seals webhook
// secrets, so only their owner may read them: the data directory is 0700, the files in it 0600.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
/** What a child writing into a private directory runs under, so each new file is 0600. */
export const PRIVATE_UMASK = 0o077;

/**
 * Creates the directory 0700, or tightens an existing one (an earlier version created it 0755),
 * then tightens the given files in it when they exist.
 */
export function preparePrivateDirectory(dir: string, existingFiles: readonly string[] = []): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  chmodSync(dir, PRIVATE_DIRECTORY_MODE);
  for (const file of existingFiles) restrictFile(file);
}

/** Makes an existing file owner-only; a missing one is left to be created private. */
export function restrictFile(file: string): void {
  if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}

/** Writes a file only its owner can read, tightening it if it already existed with a wider mode. */
export function writePrivateFile(file: string, content: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  // `mode` applies only when the file is created; chmod covers a file an older run left open.
  writeFileSync(file, content, { mode: PRIVATE_FILE_MODE });
  chmodSync(file, PRIVATE_FILE_MODE);
}
