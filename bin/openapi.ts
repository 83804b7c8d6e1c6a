// Writes (--write) or checks (--check) the committed openapi.json against the route table.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApi } from '../functions/platform/openapi';

const file = join(__dirname, '..', 'openapi.json');
const generated = `${JSON.stringify(buildOpenApi(), null, 2)}\n`;

if (process.argv.includes('--write')) {
  writeFileSync(file, generated);
  console.log(`wrote ${file}`);
} else {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (committed !== generated) {
    console.error('openapi.json is stale: run `npm run openapi` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.json is up to date with the route table.');
}
