/**
 * serverless-plugin-split-stacks, set up for this service: the resources of the HTTP functions go
 * to one nested stack per area (infra/stacks-map.cjs), so every stack stays far below
 * CloudFormation's 500 resources as routes are added (docs/deploy.md, "Room to grow"). One
 * `serverless deploy` still deploys the root stack and its nested stacks together; serverless-offline
 * (`npm start`, the tests) never packages, so nothing changes locally.
 *
 * One departure from the plugin as published: `serverless package` runs offline (CI, the package
 * tests: no AWS credentials), so the plugin's look-up of the deployed stack (which keeps an already
 * deployed resource in the stack that holds it) runs on `deploy` only. The map is a function of
 * serverless.yml, so both give the same layout for a stage deployed with it.
 *
 * The nested templates are written to .serverless beside the root template; osls moves them with it
 * to `--package <dir>` and back before a deploy of a package, and the plugin uploads them.
 */
'use strict';

const SplitStacks = require('serverless-plugin-split-stacks');

class CampusBooksSplitStacks extends SplitStacks {
  constructor(serverless, options) {
    super(serverless, options);
    const lookUpDeployed = this.migrateExistingResources;
    this.migrateExistingResources = () => {
      if ((serverless.processedInput?.commands ?? []).includes('deploy')) return lookUpDeployed.call(this);
      this.existingResources = {};
      return Promise.resolve();
    };
  }
}

module.exports = CampusBooksSplitStacks;
