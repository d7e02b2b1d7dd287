/**
 * A local Serverless plugin for the `test` stage only: adds the functions of
 * tests/e2e/fixtures/functions.yml (test-only handlers under tests/, e.g. a route that outlives its
 * time limit) to the service before serverless-esbuild bundles and serverless-offline serves it.
 * Every other stage, deployed or `local`, never sees them, and the files that list the routes
 * (serverless.yml, functions/<area>/functions.yml: the OpenAPI document, the route tests) do not
 * name them.
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { beforeOfflineStart } = require('./offline-start.cjs');

const STAGE = 'test';
const FIXTURES = path.join('tests', 'e2e', 'fixtures', 'functions.yml');

class OfflineTestFunctions {
  constructor(serverless, options) {
    this.serverless = serverless;
    // Runs before serverless-esbuild and serverless-offline read the functions (listed after it).
    this.hooks = beforeOfflineStart(serverless, options, (service, stage) => this.add(service, stage));
  }

  add(service, stage) {
    if (stage !== STAGE) return;
    const file = path.join(this.serverless.serviceDir ?? process.cwd(), FIXTURES);
    const functions = require('yaml').parse(fs.readFileSync(file, 'utf8')) ?? {};
    for (const [key, fn] of Object.entries(functions)) {
      if (service.functions[key]) continue;
      service.functions[key] = {
        name: `${service.service}-${stage}-${key}`,
        events: [],
        ...fn,
      };
    }
  }
}

module.exports = OfflineTestFunctions;
