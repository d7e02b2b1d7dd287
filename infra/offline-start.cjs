/**
 * What the local plugins that prepare `serverless offline start` share (infra/offline-stream-pace.cjs,
 * infra/offline-test-functions.cjs): a change to the service made once the configuration is read and
 * before the plugins listed after them (serverless-esbuild, serverless-offline and its stream
 * readers) read the functions, told the stage it starts for.
 */
'use strict';

/**
 * The hooks that run `change(service, stage)` before serverless offline starts: `stage` is the
 * `--stage` option, or the provider's. Both hooks, so it runs whichever the CLI reaches first (the
 * changes are idempotent).
 */
function beforeOfflineStart(serverless, options, change) {
  const run = () => {
    const service = serverless.service;
    change(service, options.stage ?? service.provider.stage);
  };
  return { 'before:offline:start:init': run, 'before:offline:start': run };
}

module.exports = { beforeOfflineStart };
