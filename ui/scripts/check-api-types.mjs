// The UI's API types are generated from the OpenAPI document the server serves (docs/openapi.json, which the
// server's contract test keeps equal to the served one). This fails when src/api/schema.d.ts has drifted from it;
// `node scripts/check-api-types.mjs --write` regenerates it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const spec = path.resolve(here, '../../docs/openapi.json');
const target = path.resolve(here, '../src/api/schema.d.ts');
const header = '// Generated from docs/openapi.json by scripts/check-api-types.mjs --write. Do not edit.\n';
const generated = header + astToString(await openapiTS(new URL(`file://${spec}`)));
if (process.argv.includes('--write')) {
  fs.writeFileSync(target, generated);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
} else {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== generated) {
    console.error('ui: src/api/schema.d.ts differs from docs/openapi.json: run '
      + '`npm --prefix ui run gen` (node scripts/check-api-types.mjs --write) and commit the result');
    process.exit(1);
  }
}
