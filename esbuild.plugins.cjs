// esbuild plugins for the Lambda bundles (serverless-esbuild `plugins` option).
const { readFileSync } = require('node:fs');
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
 * The AWS SDK clients' generated schema modules (dist-es/schemas/schemas_0.js) describe every
 * operation of a service with computed keys whose names are string constants
 * (`{ [_h]: ['POST', '/v2/email/outbound-emails', 200] }`). esbuild must assume a computed key may
 * have side effects, so the schemas of every operation stayed in each bundle (~47 KB of SESv2's).
 * Written as the literal keys they are, the schemas of the operations a function never sends are
 * dropped like any unused code (issue 19: only the SDK commands used).
 */
const awsSchemasLiteralKeys = {
  name: 'aws-schemas-literal-keys',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/ },
      (args) => {
        const source = readFileSync(args.path, 'utf8');
        const strings = new Map();
        for (const m of source.matchAll(/^const (_\w+) = ("(?:[^"\\\n]|\\.)*");$/gm)) strings.set(m[1], m[2]);
        const contents = source.replace(/\[(_\w+)\]:/g, (key, name) =>
          strings.has(name) ? `${strings.get(name)}:` : key,
        );
        return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
      },
    );
  },
};

/**
 * The SDK's HTTP protocols load the event-stream codec with a dynamic import, which esbuild inlines
 * (~14 KB); no operation this service sends has an event stream, so the import resolves to a module
 * that says so if it is ever reached.
 */
const noAwsEventStreams = {
  name: 'no-aws-event-streams',
  setup(build) {
    build.onResolve({ filter: /^@smithy\/core\/event-streams$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'no-aws-event-streams' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-aws-event-streams' }, () => ({
      contents: `const unused = () => {
  throw new Error('AWS event streams are not bundled (esbuild.plugins.cjs): no operation of this service has one.');
};
export const eventStreamSerdeProvider = unused;
export class EventStreamSerde {
  constructor() {
    unused();
  }
}
`,
      loader: 'js',
    }));
  },
};

/** Each AWS SDK client reads only `version` from its package.json (user agent); not the whole file. */
const awsPackageVersionOnly = {
  name: 'aws-package-version-only',
  setup(build) {
    build.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/ }, (args) => {
      const { name, version } = JSON.parse(readFileSync(args.path, 'utf8'));
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

/**
 * DynamoDB clients carry endpoint discovery, whose endpoint cache is mnemonist's LRU cache (~8 KB
 * with its helpers). The cache is a plain Map kept in recency order here: the same operations
 * (has, peek, get, set, clear) with the same capacity.
 */
const smallEndpointCache = {
  name: 'small-endpoint-cache',
  setup(build) {
    build.onResolve({ filter: /^mnemonist\/lru-cache$/ }, (args) =>
      /[\\/]@aws-sdk[\\/]endpoint-cache[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'small-endpoint-cache' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'small-endpoint-cache' }, () => ({
      contents: `export default class LRUCache {
  constructor(capacity) {
    this.capacity = capacity;
    this.items = new Map();
  }
  has(key) {
    return this.items.has(key);
  }
  peek(key) {
    return this.items.get(key);
  }
  get(key) {
    if (!this.items.has(key)) return undefined;
    const value = this.items.get(key);
    this.items.delete(key);
    this.items.set(key, value);
    return value;
  }
  set(key, value) {
    this.items.delete(key);
    this.items.set(key, value);
    if (this.items.size > this.capacity) this.items.delete(this.items.keys().next().value);
    return this;
  }
  clear() {
    this.items.clear();
  }
}
`,
      loader: 'js',
    }));
  },
};

/**
 * The SDK's SHA-256 for Node falls back to a pure-JavaScript implementation (~3 KB) when
 * node:crypto has no sha256, which never happens on Node; the fallback says so if it is reached.
 */
const noJsSha256 = {
  name: 'no-js-sha256',
  setup(build) {
    build.onResolve({ filter: /^\.\/Sha256Js$/ }, (args) =>
      /[\\/]@smithy[\\/]core[\\/].*[\\/]Sha256Node\.js$/.test(args.importer)
        ? { path: args.path, namespace: 'no-js-sha256' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'no-js-sha256' }, () => ({
      contents: `export class Sha256Js {
  constructor() {
    throw new Error('node:crypto has no sha256 and the JavaScript SHA-256 is not bundled (esbuild.plugins.cjs).');
  }
}
`,
      loader: 'js',
    }));
  },
};

/**
 * Node's built-in modules through `require`, not through ESM `import`. An ESM import of a built-in
 * builds its ESM facade, which reads every export, getters included: `node:http`'s `WebSocket`,
 * `CloseEvent` and `MessageEvent` getters then load all of undici (45 ms of a cold start, against
 * 8 ms for `require('node:http')`), and `node:crypto`'s load WebCrypto. The banner's `require`
 * (createRequire) loads them as CommonJS, which reads an export only when the code asks for it.
 */
const builtinsThroughRequire = {
  name: 'builtins-through-require',
  setup(build) {
    const { isBuiltin } = require('node:module');
    build.onResolve({ filter: /^[a-z:_/]+$/ }, (args) => {
      if (args.namespace === 'builtin-require' || !isBuiltin(args.path)) return undefined;
      return { path: args.path, namespace: 'builtin-require' };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

module.exports = [
  zodEnglishOnly,
  awsCredentialsFromEnv,
  awsSchemasLiteralKeys,
  noAwsEventStreams,
  awsPackageVersionOnly,
  smallEndpointCache,
  noJsSha256,
  builtinsThroughRequire,
];
