// Reads what DynamoDB Local writes on stderr for the storage problems an operator must hear about.
//
// A full disk is not named by DynamoDB Local itself: SQLite answers SQLITE_FULL and rolls the
// transaction back on its own, DynamoDB Local's explicit rollback then fails, and only that second
// error reaches the output ("[1] DB[1] exec() cannot rollback - no transaction is active", seen on
// a full tmpfs), while the client gets a generic 500 InternalFailure. So that signature counts as a
// failed write, and the caller checks the free space of the data directory to name the cause.
import { statfsSync } from 'node:fs';

export type StorageSignal =
  /** The output names a full disk (SQLite's own text, the JVM's, or errno). */
  | 'disk_full'
  /** A write failed in a way SQLite handles by rolling back itself: a full disk or an I/O error. */
  | 'write_failed';

const DISK_FULL = [/database or disk is full/i, /SQLITE_FULL/, /\[13\] DB\[/, /No space left on device/i, /\bENOSPC\b/, /disk quota exceeded/i];
const WRITE_FAILED = [/cannot rollback - no transaction is active/i, /disk I\/O error/i, /SQLITE_IOERR/, /\[10\] DB\[/];

export function classifyStorageLine(line: string): StorageSignal | undefined {
  if (DISK_FULL.some((pattern) => pattern.test(line))) return 'disk_full';
  if (WRITE_FAILED.some((pattern) => pattern.test(line))) return 'write_failed';
  return undefined;
}

/** Below this, a failed write on the data directory's filesystem is put down to a full disk. */
export const LOW_FREE_SPACE_BYTES = 64 * 1024 * 1024;

export type FreeSpace = (dir: string) => number | undefined;

export const freeSpaceOf: FreeSpace = (dir) => {
  try {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  } catch {
    return undefined;
  }
};

export interface StorageProblem {
  cause: 'disk_full' | 'storage_error';
  message: string;
  line: string;
  free_bytes?: number;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${bytes} B`;
}

/**
 * Turns one stderr line into the problem to log, naming a full disk when the line does or when a
 * failed write coincides with little free space where the data lives (`dataDir`; in memory: none).
 */
export function storageProblemOf(line: string, dataDir: string | undefined, freeSpace: FreeSpace = freeSpaceOf): StorageProblem | undefined {
  const signal = classifyStorageLine(line);
  if (!signal) return undefined;
  const free = dataDir === undefined ? undefined : freeSpace(dataDir);
  const where = dataDir === undefined ? '' : ` holding ${dataDir}`;
  const freeText = free === undefined ? '' : ` (${formatBytes(free)} free)`;
  if (signal === 'disk_full' || (free !== undefined && free < LOW_FREE_SPACE_BYTES)) {
    return { cause: 'disk_full', message: `DynamoDB Local cannot write: no space left on the disk${where}${freeText}`, line, free_bytes: free };
  }
  return { cause: 'storage_error', message: `DynamoDB Local failed to write${freeText}`, line, free_bytes: free };
}
