/**
 * The bundle cap of issue 19 and its exemptions, in one place: the package tier's test
 * (tests/package/bundles.test.ts, so CI checks every packaging) and the benchmark's targets
 * (bench/harness/report.ts) both read them. docs/bundles.md says why each exemption exists.
 */

/**
 * Every HTTP function's minified JavaScript at most this: 300 KB while the service had its own
 * DynamoDB client, 350 KB since the SDK's client is back on the request path (issue 30: its
 * DocumentClient, timeouts and idempotent retries cost ~170 KB a function; largest 327 KB).
 */
export const BUNDLE_CAP_BYTES = 350 * 1024;

/** HTTP functions held to a cap of their own (today's size and a margin), with the reason. */
export const EXEMPT_HTTP: Record<string, { why: string; bytes: number }> = {
  booksAddPhoto: { why: 'S3 client and presigned POST (exempt by issue 19)', bytes: 460 * 1024 },
  docsOpenapi: {
    why: 'carries the OpenAPI document itself, which grows with every route (92 operations: 378 KB); reads no table',
    bytes: 450 * 1024,
  },
};

/**
 * The background functions (stream consumers, scheduled jobs, mail feedback, photo processing and
 * sweeping): on no request path, so not held to the cap; their sizes are reported.
 */
export const BACKGROUND_FUNCTIONS = [
  'mailFeedback',
  'outboxConsumer',
  'photosProcess',
  'photosSweepSlots',
  'scheduledFinishAccountDeletions',
  'scheduledRemindHandovers',
  'scheduledSendDailyDigests',
  'scheduledSweepOutbox',
  'scheduledUnlistStaleBooks',
  'streamsConsumer',
] as const;

/** The cap a function is held to, or null for a background function. */
export function bundleCapOf(fn: string): number | null {
  if ((BACKGROUND_FUNCTIONS as readonly string[]).includes(fn)) return null;
  return EXEMPT_HTTP[fn]?.bytes ?? BUNDLE_CAP_BYTES;
}
