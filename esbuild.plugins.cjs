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

module.exports = [zodEnglishOnly];
