import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The local serverless plugin is CommonJS (serverless loads it with require).
const require = createRequire(import.meta.url);
type Functions = Record<string, { events?: { stream?: Record<string, unknown>; httpApi?: unknown }[] }>;
type Plugin = new (
  serverless: { service: { provider: { stage: string }; functions: Functions } },
  options: { stage?: string },
) => { hooks: Record<string, () => void> };
const OfflineStreamPace = require('#infra/offline-stream-pace.cjs') as Plugin & {
  READ_INTERVAL_MS: number;
};

function functions(): Functions {
  return {
    outboxConsumer: { events: [{ stream: { type: 'dynamodb', arn: 'x', batchSize: 10 } }] },
    getBook: { events: [{ httpApi: { path: '/api/books/{id}', method: 'GET' } }] },
  };
}

function run(stage: string) {
  const fns = functions();
  const plugin = new OfflineStreamPace(
    { service: { provider: { stage: 'dev' }, functions: fns } },
    { stage },
  );
  // The hook serverless runs before serverless-offline-dynamodb-streams reads the stream events.
  plugin.hooks['before:offline:start:init']?.();
  return fns;
}

describe('local stream polling (infra/offline-stream-pace.cjs)', () => {
  it('polls the stream every 100 ms on the emulated stages, instead of the reader’s 500 ms', () => {
    expect(OfflineStreamPace.READ_INTERVAL_MS).toBe(100);
    for (const stage of ['local', 'test']) {
      const fns = run(stage);
      expect(fns.outboxConsumer?.events?.[0]?.stream).toEqual({
        type: 'dynamodb',
        arn: 'x',
        batchSize: 10,
        readInterval: 100,
      });
      expect(fns.getBook?.events?.[0]).toEqual({ httpApi: { path: '/api/books/{id}', method: 'GET' } });
    }
  });

  it('leaves a deployed stage’s events as written', () => {
    expect(run('prod')).toEqual(functions());
  });
});
