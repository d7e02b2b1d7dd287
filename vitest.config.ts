import { defineConfig } from 'vitest/config';

/**
 * Three tiers:
 *  - unit: pure rules, no I/O;
 *  - integration: handlers and repositories against a real DynamoDB Local (own per-file table);
 *  - e2e: the real HTTP server (serverless offline) driven with fetch;
 *  - package: `serverless package --stage dev` once, then the CloudFormation template is read.
 * Each tier's global setup starts what it needs on free ports and stops it afterwards.
 */
export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          setupFiles: ['tests/setup/unit-env.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/setup/emulators.ts'],
          setupFiles: ['tests/setup/integration-env.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/setup/e2e-server.ts'],
          setupFiles: ['tests/setup/e2e-env.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'package',
          include: ['tests/package/**/*.test.ts'],
          globalSetup: ['tests/setup/package.ts'],
          setupFiles: ['tests/setup/unit-env.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
