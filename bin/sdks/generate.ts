// The client-library generator: reads openapi.json once (bin/sdks/contract.ts) and writes every
// language's generated files, the shared webhook vectors, the Postman collection and the .http file.
//
//   npm run sdks          (tsx bin/sdks/generate.ts --write)   regenerate everything
//   npm run sdks:check    (tsx bin/sdks/generate.ts --check)   exit 1 when a committed file is stale
//
// Languages are the modules in bin/sdks/languages/ (each exports `language`, bin/sdks/language.ts):
// a language is added by adding its module, and one not written yet is simply absent. Each
// language's generated paths are listed in sdks/<name>/.generated, so a file the generator stops
// emitting (a model removed from openapi.json) is deleted on --write and reported by --check
// instead of lingering. Hand-written files beside them are never touched.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadContract, ROOT, type SdkContract } from './contract';
import type { SdkLanguage } from './language';
import { renderHttpFile, renderPostman } from './collections';
import { renderWebhookVectors } from './vectors';

export const SDKS_DIR = join(ROOT, 'sdks');
export const LANGUAGES_DIR = join(__dirname, 'languages');
/** Per language: the generated paths, one a line, so stale ones can be found. */
export const MANIFEST = '.generated';

/** Every language module present, by name. */
export async function loadLanguages(only?: readonly string[]): Promise<SdkLanguage[]> {
  if (!existsSync(LANGUAGES_DIR)) return [];
  const files = readdirSync(LANGUAGES_DIR)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .sort();
  const languages: SdkLanguage[] = [];
  for (const file of files) {
    const module = (await import(join(LANGUAGES_DIR, file))) as { language?: SdkLanguage };
    const language = module.language;
    if (!language || typeof language.emit !== 'function') throw new Error(`bin/sdks/languages/${file} does not export a \`language\` (bin/sdks/language.ts)`);
    if (`${language.name}.ts` !== file) throw new Error(`bin/sdks/languages/${file} declares the name ${language.name}: the file must be ${language.name}.ts`);
    if (!only || only.includes(language.name)) languages.push(language);
  }
  return languages;
}

/** A path the generator owns (relative to the repository root) and its content. */
export interface GeneratedFile {
  path: string;
  content: string;
}

function safeRelative(language: string, path: string): string {
  const normalised = path.split('\\').join('/');
  if (normalised.startsWith('/') || normalised.split('/').includes('..') || normalised === MANIFEST) {
    throw new Error(`language ${language} emits ${path}: paths must stay inside sdks/${language}/`);
  }
  return normalised;
}

export interface Plan {
  files: GeneratedFile[];
  /** Previously generated files (from each manifest) that the generator no longer emits. */
  orphans: string[];
}

function readManifest(language: string): string[] {
  const path = join(SDKS_DIR, language, MANIFEST);
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** Everything the generator would write, from the contract and the language modules given. */
export function plan(contract: SdkContract, languages: readonly SdkLanguage[]): Plan {
  const files: GeneratedFile[] = [
    { path: 'sdks/webhook-vectors.json', content: renderWebhookVectors() },
    { path: 'sdks/postman/fincore.postman_collection.json', content: renderPostman(contract) },
    { path: 'sdks/http/fincore.http', content: renderHttpFile(contract) },
  ];
  const orphans: string[] = [];
  for (const language of languages) {
    const emitted = Object.entries(language.emit(contract))
      .map(([path, content]) => ({ path: safeRelative(language.name, path), content }))
      .sort((a, b) => a.path.localeCompare(b.path));
    for (const file of emitted) files.push({ path: `sdks/${language.name}/${file.path}`, content: file.content });
    const names = emitted.map((file) => file.path);
    files.push({ path: `sdks/${language.name}/${MANIFEST}`, content: names.map((n) => `${n}\n`).join('') });
    for (const old of readManifest(language.name)) {
      if (!names.includes(old)) orphans.push(`sdks/${language.name}/${old}`);
    }
  }
  return { files, orphans };
}

export interface CheckResult {
  /** Generated files that differ from what is on disk or are missing. */
  stale: string[];
  /** Files the generator used to write and no longer emits. */
  orphans: string[];
}

export function check(planned: Plan): CheckResult {
  const stale = planned.files
    .filter((file) => {
      const path = join(ROOT, file.path);
      return !existsSync(path) || readFileSync(path, 'utf8') !== file.content;
    })
    .map((file) => file.path);
  return { stale, orphans: planned.orphans.filter((path) => existsSync(join(ROOT, path))) };
}

/** Writes what changed and deletes orphans; returns the paths touched. */
export function write(planned: Plan): string[] {
  const { stale, orphans } = check(planned);
  for (const file of planned.files.filter((f) => stale.includes(f.path))) {
    const path = join(ROOT, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  for (const orphan of orphans) rmSync(join(ROOT, orphan));
  return [...stale, ...orphans];
}

/** The check the unit test and `npm run sdks:check` run: every committed generated file current. */
export async function checkGenerated(): Promise<CheckResult> {
  return check(plan(loadContract(), await loadLanguages()));
}

async function main(argv: string[]): Promise<number> {
  const mode = argv.includes('--write') ? 'write' : argv.includes('--check') ? 'check' : null;
  if (mode === null) {
    console.error('usage: tsx bin/sdks/generate.ts --write | --check');
    return 2;
  }
  const languages = await loadLanguages();
  const planned = plan(loadContract(), languages);
  const names = languages.map((l) => l.name).join(', ') || 'none';
  if (mode === 'write') {
    const touched = write(planned);
    for (const path of touched) console.log(`  ${existsSync(join(ROOT, path)) ? 'wrote' : 'deleted'} ${path}`);
    console.log(`sdks: ${planned.files.length} generated files for ${languages.length} languages (${names}); ${touched.length} changed`);
    return 0;
  }
  const { stale, orphans } = check(planned);
  if (stale.length === 0 && orphans.length === 0) {
    console.log(`sdks: ${planned.files.length} generated files current for ${languages.length} languages (${names})`);
    return 0;
  }
  for (const path of stale) console.error(`  stale: ${path}`);
  for (const path of orphans) console.error(`  no longer generated: ${path}`);
  console.error(`sdks: ${stale.length + orphans.length} generated files are out of date with openapi.json: run \`npm run sdks\` and commit the result`);
  return 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.stack : error);
      process.exit(1);
    },
  );
}
