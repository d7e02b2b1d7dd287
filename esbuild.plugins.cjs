// esbuild plugins for the Lambda bundles (serverless-esbuild `plugins` option).
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { brotliCompressSync, constants } = require('node:zlib');

/**
 * zod's classic build re-exports every locale (~250 KB minified); the service only speaks English.
 * Replace the locale barrel with one that exports `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]zod[\\/]/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' };
    });
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * In Lambda the function's credentials are always in its environment (AWS_ACCESS_KEY_ID,
 * AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and the emulated stages pass credentials explicitly.
 * The SDK clients' default chain (SSO, STS web identity, ini files, IMDS, ...) bundles ~130 KB
 * of clients that never run: resolve it to the environment provider alone.
 */
const awsCredentialsFromEnv = {
  name: 'aws-credentials-from-env',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\/credential-provider-node$/ }, (args) => ({
      path: args.path,
      namespace: 'aws-credentials-from-env',
    }));
    build.onLoad({ filter: /.*/, namespace: 'aws-credentials-from-env' }, () => ({
      contents: "export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';\n",
      resolveDir: __dirname,
      loader: 'js',
    }));
  },
};

/**
 * Replaces lib/docs/asset-data.ts with a module that holds the API docs page's renderer files
 * (lib/docs/assets.json) Brotli-compressed, so the docs assets function carries them without
 * node_modules (~0.5 MB instead of 1.9 MB). Compressing at the highest level takes ~10-20 s, so
 * results are cached in node_modules/.cache by content hash.
 */
const CACHE = path.join(__dirname, 'node_modules', '.cache', 'docs-assets');

function compressed(file) {
  const plain = readFileSync(require.resolve(file, { paths: [__dirname] }));
  const hash = createHash('sha256').update(plain).digest('hex');
  const cached = path.join(CACHE, `${hash}.br`);
  try {
    return readFileSync(cached);
  } catch {
    const br = brotliCompressSync(plain, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: plain.length },
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
      const assets = JSON.parse(readFileSync(path.join(__dirname, 'lib', 'docs', 'assets.json'), 'utf8'));
      const data = Object.fromEntries(
        Object.entries(assets).map(([name, { file }]) => [name, compressed(file).toString('base64')]),
      );
      return {
        loader: 'js',
        resolveDir: path.join(__dirname, 'lib', 'docs'),
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

module.exports = [zodEnglishOnly, awsCredentialsFromEnv, inlineDocsAssets];
