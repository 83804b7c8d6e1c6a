// Which Debian packages the client libraries' toolchains still need on this machine: the union of
// each language's aptPackages whose toolchainProbe fails. bin/ensure-sdk-toolchains.sh installs them.
//
//   npx tsx bin/sdks/toolchains.ts [--languages python,go]    prints the missing packages, one a line
import { spawnSync } from 'node:child_process';
import type { SdkLanguage } from './language';
import { loadLanguages } from './generate';

/** Whether the language's toolchain answers its probe (a missing command counts as absent). */
export function toolchainPresent(language: SdkLanguage, env: NodeJS.ProcessEnv = process.env): boolean {
  const [command, ...args] = language.toolchainProbe;
  const result = spawnSync(command, args, { stdio: 'ignore', env, timeout: 60_000 });
  return result.status === 0;
}

export function missingPackages(languages: readonly SdkLanguage[], env: NodeJS.ProcessEnv = process.env): string[] {
  const packages = new Set<string>();
  for (const language of languages) {
    if (!toolchainPresent(language, env)) for (const name of language.aptPackages) packages.add(name);
  }
  return [...packages].sort();
}

/** FC_SDK_LANGUAGES=python,go (or --languages python,go): the subset to work on; all when unset. */
export function selectedLanguageNames(argv: readonly string[] = process.argv, env: NodeJS.ProcessEnv = process.env): string[] | undefined {
  const flag = argv.indexOf('--languages');
  const raw = flag >= 0 ? argv[flag + 1] : env.FC_SDK_LANGUAGES;
  const names = raw?.split(',').map((name) => name.trim()).filter(Boolean);
  return names && names.length > 0 ? names : undefined;
}

if (require.main === module) {
  loadLanguages(selectedLanguageNames()).then(
    (languages) => {
      for (const name of missingPackages(languages)) console.log(name);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
