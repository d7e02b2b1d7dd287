/**
 * Prerequisites of the local stack and the tests, checked before anything starts so a missing one
 * is one clear line (what to install), not a `spawn java ENOENT` stack trace.
 *  - Java 17+: DynamoDB Local is a Java program.
 *  - Chromium: when the browser tests exist (tests/e2e/web/); CHROMIUM_PATH names the binary, as in
 *    tests/helpers/browser.ts (default /usr/bin/chromium).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export interface PrereqOptions {
  env?: NodeJS.ProcessEnv;
  /** the repository root (to find tests/e2e/web/) */
  root: string;
  /** check for Chromium when browser tests exist (npm test), not for npm start */
  browser?: boolean;
}

const JAVA_HINT =
  'install a Java 17+ runtime (e.g. `sudo apt-get install openjdk-17-jre-headless` or `brew install openjdk@17`) and make sure `java` is on PATH';

/** The Java major version on PATH, or null when there is none. */
function javaMajor(env: NodeJS.ProcessEnv): number | null {
  const run = spawnSync('java', ['-version'], { env, encoding: 'utf8', timeout: 20_000 });
  if (run.error || run.status !== 0) return null;
  const m = /version "(\d+)(?:\.(\d+))?/.exec(`${run.stderr}${run.stdout}`);
  if (!m) return 0;
  // "1.8.0" is Java 8.
  return m[1] === '1' ? Number(m[2] ?? 0) : Number(m[1]);
}

/** One line per missing prerequisite (empty when all is there). */
export function missingPrerequisites(options: PrereqOptions): string[] {
  const env = options.env ?? process.env;
  const out: string[] = [];
  const java = javaMajor(env);
  if (java === null) out.push(`Java was not found (DynamoDB Local needs it): ${JAVA_HINT}.`);
  else if (java !== 0 && java < 17)
    out.push(`Java ${java} is too old (DynamoDB Local needs 17+): ${JAVA_HINT}.`);
  if (options.browser && existsSync(path.join(options.root, 'tests', 'e2e', 'web'))) {
    const chromium = env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';
    if (!existsSync(chromium)) {
      out.push(
        `Chromium was not found at ${chromium} (the browser tests need it): install it (e.g. \`sudo apt-get install chromium\`) or set CHROMIUM_PATH to its binary.`,
      );
    }
  }
  return out;
}
