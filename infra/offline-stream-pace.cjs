/**
 * A local Serverless plugin for the emulated stages only: how often the local stream readers
 * (serverless-offline-dynamodb-streams) poll the table's stream.
 *
 * Its reader waits `readInterval` (500 ms unless set) after every GetRecords call, also after one
 * that returned records, and reads at most the event's `batchSize` records a call. At 500 ms a
 * consumer with `batchSize: 10` (the outbox) drains at most 20 stream records a second, filtered or
 * not: under the test suite's write load its lag grew without bound (a sign-up e-mail took over
 * 17 s). Lambda polls each shard about four times a second and reads up to 1,000 records a call, so
 * 100 ms here keeps the local lag near the deployed one. Deployed stages are untouched: the option
 * is added only for `local` and `test`, after the configuration was validated.
 */
'use strict';

const { beforeOfflineStart } = require('./offline-start.cjs');

const EMULATED = new Set(['local', 'test']);
const READ_INTERVAL_MS = 100;

/** Sets `readInterval` on every DynamoDB stream event of `functions` (mutates). Exported for tests. */
function paceStreamEvents(functions, readInterval = READ_INTERVAL_MS) {
  const paced = [];
  for (const [name, fn] of Object.entries(functions ?? {})) {
    for (const event of fn?.events ?? []) {
      const stream = event?.stream;
      if (stream && typeof stream === 'object' && stream.type === 'dynamodb') {
        stream.readInterval = readInterval;
        paced.push(name);
      }
    }
  }
  return paced;
}

class OfflineStreamPace {
  constructor(serverless, options) {
    // Runs before serverless-offline-dynamodb-streams reads the events (its `offline:start:init`).
    this.hooks = beforeOfflineStart(serverless, options, (service, stage) => {
      if (EMULATED.has(stage)) paceStreamEvents(service.functions);
    });
  }
}

module.exports = OfflineStreamPace;
module.exports.paceStreamEvents = paceStreamEvents;
module.exports.READ_INTERVAL_MS = READ_INTERVAL_MS;
