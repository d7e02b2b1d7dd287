// esbuild plugins for the Lambda bundles (serverless-esbuild `plugins` option).
const path = require('node:path');

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
 * The SDK clients' default chain (SSO, STS web identity, ini files, IMDS, ...) bundles ~100 KB
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

module.exports = [zodEnglishOnly, awsCredentialsFromEnv];
