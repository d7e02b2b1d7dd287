/**
 * The SDK floor of the cold-init cases (issue 30): what a cold first call costs with nothing of the
 * service's own code. For each case, the DynamoDB calls of its floor (the calls its endpoint makes,
 * bench/cases) are recorded once in this process, in waves of calls sent together; a fresh process
 * then imports `sdk-floor-handler.ts`, bundled and minified as the functions are, and sends them.
 * A case's cold init over its SDK floor's is our code's share.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { InitializeMiddleware, MetadataBearer } from '@smithy/types';
import { build } from 'esbuild';
import { floorClient } from './env.ts';
import { ROOT } from './measure.ts';
import type { RecordedCall } from './sdk-floor-handler.ts';
import type { CaseRun } from './types.ts';

/** esbuild's settings of the functions' bundles (serverless.yml custom.esbuild). */
export const functionBundleOptions = () => ({
  bundle: true,
  minify: true,
  format: 'esm' as const,
  platform: 'node' as const,
  target: 'node24',
  mainFields: ['module', 'main'],
  logLevel: 'silent' as const,
  // Node's built-ins through `require` (an ESM import of node:http loads undici), and the banner
  // that provides it
  plugins: createRequire(import.meta.url)(path.join(ROOT, 'esbuild.plugins.cjs')),
  banner: {
    js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
  },
});

/** Bundles the SDK floor's handler to `outfile`. */
export async function bundleSdkFloor(outfile: string): Promise<void> {
  await build({
    ...functionBundleOptions(),
    entryPoints: [path.join(ROOT, 'bench', 'harness', 'sdk-floor-handler.ts')],
    outfile,
  });
}

/**
 * Groups calls into waves: the calls a piece of code starts before any answer can arrive (before
 * the event loop's next turn) were sent together, as a `Promise.all` sends them.
 */
export class WaveRecorder {
  readonly waves: RecordedCall[][] = [];
  private open: RecordedCall[] | undefined;

  record(call: RecordedCall): void {
    if (!this.open) {
      const wave: RecordedCall[] = [];
      this.waves.push(wave);
      this.open = wave;
      setImmediate(() => {
        if (this.open === wave) this.open = undefined;
      });
    }
    this.open.push(call);
  }
}

const recordOn = (client: DynamoDBDocumentClient, recorder: WaveRecorder) => {
  const middleware: InitializeMiddleware<object, MetadataBearer> = (next, context) => (args) => {
    recorder.record({
      operation: String(context.commandName ?? '').replace(/Command$/, ''),
      input: structuredClone(args.input as Record<string, unknown>),
    });
    return next(args);
  };
  client.middlewareStack.add(middleware, { step: 'initialize', priority: 'high', name: 'recordCalls' });
};

/**
 * The calls (in waves) of the case's floor for call `i`, made once against `endpoint`. A floor sends
 * its calls on the client it is given or through the service's own modules (a search floor runs the
 * production search, lib/books/search.ts): both are recorded, the service's through its meter's
 * watchers (lib/table/metrics.ts `watchCalls`), which see the same operation and input.
 */
export async function recordFloorCalls(run: CaseRun, i: number, endpoint: string): Promise<RecordedCall[][]> {
  const { client, destroy } = await floorClient(endpoint, false);
  const { watchCalls } = await import('#lib/table/metrics.ts');
  const recorder = new WaveRecorder();
  recordOn(client, recorder);
  let unwatch: (() => void) | undefined;
  try {
    // what `before` does is not the request's: not recorded
    await run.before?.(i);
    unwatch = watchCalls((operation, input) => recorder.record({ operation, input: structuredClone(input) }));
    await run.floor(i, client);
  } finally {
    unwatch?.();
    destroy();
  }
  return recorder.waves;
}
