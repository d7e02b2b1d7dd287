// esbuild plugins for serverless-esbuild (custom.esbuild.plugins in serverless.yml).
//
// inline-docs-assets: replaces lib/docs/asset-data.ts in Lambda bundles with a module that holds
// the API documentation page's renderer files (lib/docs/assets.json) Brotli-compressed, so the
// docs assets function carries them without node_modules. Compressing the renderer at the
// highest level takes ~20 s, so results are cached in node_modules/.cache by content hash.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'docs-assets');
const require = createRequire(path.join(ROOT, 'package.json'));

function compressed(file) {
  const plain = readFileSync(require.resolve(file));
  const hash = createHash('sha256').update(plain).digest('hex');
  const cached = path.join(CACHE, `${hash}.br`);
  try {
    return readFileSync(cached);
  } catch {
    const br = brotliCompressSync(plain, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
      },
    });
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(cached, br);
    return br;
  }
}

const inlineDocsAssets = {
  name: 'inline-docs-assets',
  setup(build) {
    build.onLoad({ filter: /[\\/]lib[\\/]docs[\\/]asset-data\.ts$/ }, () => {
      const assets = JSON.parse(readFileSync(path.join(ROOT, 'lib', 'docs', 'assets.json'), 'utf8'));
      const data = Object.fromEntries(
        Object.entries(assets).map(([name, { file }]) => [name, compressed(file).toString('base64')]),
      );
      return {
        loader: 'js',
        resolveDir: path.join(ROOT, 'lib', 'docs'),
        contents: `const DATA = ${JSON.stringify(data)};
export function assetData(name) {
  if (!Object.hasOwn(DATA, name)) return undefined;
  return { brotli: Buffer.from(DATA[name], 'base64') };
}
`,
      };
    });
  },
};

export default [inlineDocsAssets];
