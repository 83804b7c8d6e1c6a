// What each client library declares to the generator (bin/sdks/generate.ts) and to the test runner
// (bin/test-sdks.ts). One module per language, bin/sdks/languages/<name>.ts, exporting `language`;
// both tools find them by listing that folder, so adding a language is adding one module and its
// library folder (CONTRIBUTING.md).
import type { SdkContract } from './contract';

export interface SdkLanguage {
  /** Lower-case name, also the folder: sdks/<name>/. */
  name: string;
  /** Debian packages its toolchain needs (bin/ensure-sdk-toolchains.sh installs the missing ones). */
  aptPackages: string[];
  /** A command whose success means the toolchain is usable (e.g. ['go', 'version']). */
  toolchainProbe: string[];
  /**
   * The generated files (path relative to sdks/<name>/ -> content): models and method groups. The
   * hand-written core (transport, retries, errors, webhook verification), the packaging files, the
   * README and the tests live beside them and are never touched by the generator.
   */
  emit(contract: SdkContract): Record<string, string>;
  /**
   * Commands run in sdks/<name>/ by the runner, in order: build, then the unit tests (which run the
   * shared webhook vectors, sdks/webhook-vectors.json). Each must exit 0.
   */
  test: string[][];
  /**
   * The smoke test against the running service, run in sdks/<name>/ with the environment of
   * SMOKE_ENVIRONMENT. It prints exactly one line `SMOKE {json}` (SmokeSummary) to stdout and exits 0.
   */
  smoke: string[];
  /** Extra environment for test and smoke (e.g. GOPATH, a cache dir under the runner's temp folder). */
  env?: (workDir: string) => Record<string, string>;
}

/** The environment every smoke test gets. */
export const SMOKE_ENVIRONMENT = {
  baseUrl: 'FC_BASE_URL',
  apiKey: 'FC_API_KEY',
  /** A real delivery captured from the service just before the run: its signing secret, raw body (a file, bytes as sent) and headers. */
  webhookSecret: 'FC_WEBHOOK_SECRET',
  webhookBodyFile: 'FC_WEBHOOK_BODY_FILE',
  webhookSignature: 'FC_WEBHOOK_SIGNATURE',
  webhookTimestamp: 'FC_WEBHOOK_TIMESTAMP',
  /** The event type of that delivery. */
  webhookType: 'FC_WEBHOOK_TYPE',
  /** Absolute path of sdks/webhook-vectors.json. */
  vectors: 'FC_WEBHOOK_VECTORS',
} as const;

/**
 * What a smoke test reports. Every library runs the same journey on the same deterministic sandbox
 * login, so the runner checks that all of them agree.
 *
 * The journey: sandbox.public_token_create {institution_id: 'ins_sandbox_first_bank', products:
 * ['transactions']} -> link.token_exchange -> poll items.get (every 200 ms, at most 60 s) until
 * item.transactions_update_status is 'historical_update_complete' -> accounts.get -> transactions.sync
 * from no cursor with count 500 until has_more is false -> items.get with access_token
 * 'access-sandbox-00000000-0000-0000-0000-000000000000' must raise the library's error type ->
 * verify the captured delivery with the library's webhook helper (now = the real clock).
 */
export interface SmokeSummary {
  language: string;
  accounts: number;
  /** Transactions added by the full sync loop. */
  added: number;
  /** Sync pages fetched. */
  pages: number;
  /** From the error case: the error's fields as the library exposes them. */
  error: { status: number; type: string; code: string; request_id_present: boolean; documentation_url: string; display_message: string | null };
  /** The verified delivery's event type (verification must succeed). */
  webhook_type: string;
}
