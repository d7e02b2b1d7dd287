/**
 * The whole deployment of a stage, once the one-time prerequisites are done (docs/deploy.md):
 *
 *   npm run deploy -- --stage prod [--region us-east-1] [serverless options, e.g. --param k=v]
 *
 *   1. `serverless deploy`: the root stack and its nested stacks
 *   2. the stack's outputs (`aws cloudformation describe-stacks`)
 *   3. the web app built for them: VITE_PHOTOS_URL is the photo bucket's upload origin (the CSP's
 *      connect-src must allow the browser's POST there); VITE_API_URL stays empty, the API being
 *      `/api/*` on the site's own origin (the same CloudFront distribution)
 *   4. web/dist uploaded to the web bucket: hashed assets first, index.html last (no-cache)
 *   5. CloudFront's cache invalidated
 *   6. the site's URL and the next step
 *
 * `--dry-run` packages instead of deploying (into `--package <dir>`, else a temporary folder) and
 * prints every step with every value it would use, read from the packaged templates; it calls no
 * AWS service (values only known after a deploy are shown as <placeholders>). `--packaged <dir>`
 * reads a package already made from this tree instead of packaging (tests).
 * `npm run deploy:web -- --stage prod` runs steps 2-6 only: a new web build on a deployed stage.
 * Steps 2, 4 and 5 use the AWS CLI (`aws`), signed in to the account.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT_TEMPLATE, readStacks } from '#scripts/package/stacks.ts';
import { CACHE_CONTROL, HASHED_ASSETS_DIR } from '#web/csp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVICE = 'campus-books';
// relative: every command runs in the repository's folder
const WEB_DIST = path.join('web', 'dist');

export interface DeployOptions {
  stage: string;
  region: string;
  dryRun: boolean;
  webOnly: boolean;
  /** --package: where the dry run packages to */
  packageDir?: string;
  /** --packaged: an existing package to read instead of packaging */
  packagedDir?: string;
  /** what goes on to `serverless deploy|package`, --stage and --region included */
  serverlessArgs: string[];
}

export function parseOptions(argv: string[]): DeployOptions {
  const args = argv.filter((a) => a !== '--');
  const options: DeployOptions = {
    stage: 'dev',
    region: 'us-east-1',
    dryRun: false,
    webOnly: false,
    serverlessArgs: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--web-only') options.webOnly = true;
    else if (arg === '--package') options.packageDir = path.resolve(value());
    else if (arg === '--packaged') options.packagedDir = path.resolve(value());
    else if (arg === '--stage') options.stage = value();
    else if (arg === '--region') options.region = value();
    else options.serverlessArgs.push(arg);
  }
  options.serverlessArgs.unshift('--stage', options.stage, '--region', options.region);
  return options;
}

/** What the stack tells the later steps (infra/edge.yml's outputs). */
export interface StackOutputs {
  SiteUrl: string;
  DistributionDomainName: string;
  DistributionId: string;
  WebBucketName: string;
  PhotosUploadOrigin: string;
}
const OUTPUT_KEYS: (keyof StackOutputs)[] = [
  'SiteUrl',
  'DistributionDomainName',
  'DistributionId',
  'WebBucketName',
  'PhotosUploadOrigin',
];

/**
 * The outputs as the packaged root template states them, with what only a deploy knows (the
 * account id, names CloudFormation generates) as <placeholders>.
 */
export function outputsOfPackage(dir: string, region: string): StackOutputs {
  const [root] = readStacks(path.join(dir, ROOT_TEMPLATE));
  if (!root) throw new Error(`no template in ${dir}`);
  const resources = root.template.Resources;
  const resolve = (value: unknown): string => {
    if (typeof value === 'string') return value;
    const node = value as Record<string, unknown>;
    if (typeof node.Ref === 'string') {
      const named = resources[node.Ref]?.Properties.BucketName;
      return named === undefined ? `<${node.Ref}>` : resolve(named);
    }
    if (Array.isArray(node['Fn::GetAtt'])) return `<${node['Fn::GetAtt'].join('.')}>`;
    const sub = node['Fn::Sub'];
    if (sub !== undefined) {
      const [text, vars] = Array.isArray(sub) ? sub : [sub, {}];
      return String(text).replace(/\$\{([^}]+)\}/g, (_, name: string) => {
        if (name === 'AWS::Region') return region;
        if (name === 'AWS::AccountId') return '<account id>';
        return resolve((vars as Record<string, unknown>)[name] ?? { Ref: name });
      });
    }
    throw new Error(`cannot read ${JSON.stringify(value)}`);
  };
  const outputs = root.template.Outputs ?? {};
  return Object.fromEntries(
    OUTPUT_KEYS.map((k) => {
      if (!outputs[k]) throw new Error(`the packaged template has no output ${k}`);
      return [k, resolve(outputs[k].Value)];
    }),
  ) as unknown as StackOutputs;
}

const quote = (arg: string) => (/^[\w@%+=:,./<>-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

function show(command: string[]): void {
  console.log(`    $ ${command.map(quote).join(' ')}`);
}

/** Shows a command and, unless a dry run, runs it in the foreground; throws when it fails. */
function exec(command: string[], dryRun: boolean): void {
  show(command);
  if (dryRun) return;
  const [bin, ...args] = command as [string, ...string[]];
  const r = spawnSync(bin, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.error) throw new Error(`${bin} did not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${bin} ${args[0] ?? ''} failed (exit ${r.status})`);
}

function stackOutputs(options: DeployOptions): StackOutputs {
  const stack = `${SERVICE}-${options.stage}`;
  const command = [
    'aws',
    'cloudformation',
    'describe-stacks',
    '--region',
    options.region,
    '--stack-name',
    stack,
  ];
  show([...command, '--output', 'json']);
  const r = spawnSync(command[0] as string, [...command.slice(1), '--output', 'json'], { encoding: 'utf8' });
  if (r.error) throw new Error('the AWS CLI (`aws`) was not found: install it and sign in (docs/deploy.md)');
  if (r.status !== 0) throw new Error(`aws cloudformation describe-stacks failed: ${r.stderr.trim()}`);
  const found = (JSON.parse(r.stdout).Stacks?.[0]?.Outputs ?? []) as {
    OutputKey: string;
    OutputValue: string;
  }[];
  const out: Partial<StackOutputs> = {};
  for (const k of OUTPUT_KEYS) {
    const v = found.find((o) => o.OutputKey === k)?.OutputValue;
    if (!v)
      throw new Error(
        `the stack ${stack} has no output ${k}: deploy it first (npm run deploy -- --stage ${options.stage})`,
      );
    out[k] = v;
  }
  return out as StackOutputs;
}

/** The web build's settings for a stage with these outputs. */
export function webBuildValues(outputs: StackOutputs): { VITE_PHOTOS_URL: string; VITE_API_URL: string } {
  // The distribution sends /api/* to the API: same origin as the site, so no API URL and no CORS.
  return { VITE_PHOTOS_URL: outputs.PhotosUploadOrigin, VITE_API_URL: '' };
}

/** The upload, in an order that never serves an index.html whose assets are missing. */
export function uploadCommands(outputs: StackOutputs, region: string, dist = WEB_DIST): string[][] {
  const bucket = `s3://${outputs.WebBucketName}`;
  return [
    // Old hashed files stay: a tab still running the previous build loads its lazy pages from them.
    [
      'aws',
      's3',
      'sync',
      path.join(dist, HASHED_ASSETS_DIR),
      `${bucket}/${HASHED_ASSETS_DIR}`,
      '--region',
      region,
      '--cache-control',
      CACHE_CONTROL.hashed,
    ],
    [
      'aws',
      's3',
      'sync',
      dist,
      bucket,
      '--region',
      region,
      '--exclude',
      `${HASHED_ASSETS_DIR}/*`,
      '--exclude',
      'index.html',
      '--cache-control',
      CACHE_CONTROL.other,
    ],
    [
      'aws',
      's3',
      'cp',
      path.join(dist, 'index.html'),
      `${bucket}/index.html`,
      '--region',
      region,
      '--cache-control',
      CACHE_CONTROL.other,
    ],
  ];
}

export async function deploy(options: DeployOptions): Promise<void> {
  const { dryRun, region, stage } = options;
  const step = (n: number, text: string) => console.log(`[deploy] ${n}/6 ${text}`);
  if (dryRun) console.log(`[deploy] dry run for stage ${stage} (${region}): nothing is sent to AWS`);

  let packaged = options.packagedDir;
  if (options.webOnly) {
    step(1, 'stacks: skipped (--web-only)');
  } else if (dryRun) {
    if (!packaged) {
      packaged =
        options.packageDir ??
        path.join(mkdtempSync(path.join(os.tmpdir(), 'campus-books-dry-run-')), 'package');
      step(1, `package the stacks instead of deploying them, into ${packaged}`);
      exec(
        [
          path.join(ROOT, 'node_modules', '.bin', 'serverless'),
          'package',
          ...options.serverlessArgs,
          '--package',
          packaged,
        ],
        false,
      );
    } else {
      step(1, `package the stacks instead of deploying them: read the package in ${packaged}`);
    }
    console.log('    (a deploy runs:)');
    show(['serverless', 'deploy', ...options.serverlessArgs]);
  } else {
    step(1, 'deploy the stacks (the first deploy takes 10-20 minutes: CloudFront)');
    exec([path.join(ROOT, 'node_modules', '.bin', 'serverless'), 'deploy', ...options.serverlessArgs], false);
  }

  step(2, `read the stack's outputs (${SERVICE}-${stage})`);
  let outputs: StackOutputs;
  if (dryRun) {
    if (!packaged) throw new Error('--web-only --dry-run needs --packaged <dir> or --package <dir>');
    show([
      'aws',
      'cloudformation',
      'describe-stacks',
      '--region',
      region,
      '--stack-name',
      `${SERVICE}-${stage}`,
      '--output',
      'json',
    ]);
    outputs = outputsOfPackage(packaged, region);
  } else {
    outputs = stackOutputs(options);
  }
  for (const k of OUTPUT_KEYS) console.log(`    ${k}=${outputs[k]}`);

  const values = webBuildValues(outputs);
  step(3, 'build the web app for this stage into web/dist');
  console.log(
    `    VITE_PHOTOS_URL=${values.VITE_PHOTOS_URL} (the photo bucket's upload origin, in the CSP's connect-src)`,
  );
  console.log(
    `    VITE_API_URL=${values.VITE_API_URL} (empty: the API is ${outputs.SiteUrl}/api, the same origin)`,
  );
  if (!dryRun) {
    const { buildWeb } = await import('#scripts/local/web.ts');
    await buildWeb({
      outDir: path.join(ROOT, WEB_DIST),
      photosUrl: values.VITE_PHOTOS_URL,
      apiUrl: values.VITE_API_URL,
    });
  }

  step(4, `upload web/dist to s3://${outputs.WebBucketName}`);
  for (const command of uploadCommands(outputs, region)) exec(command, dryRun);

  step(5, "invalidate CloudFront's cache");
  exec(
    [
      'aws',
      'cloudfront',
      'create-invalidation',
      '--distribution-id',
      outputs.DistributionId,
      '--paths',
      '/*',
    ],
    dryRun,
  );

  step(6, dryRun ? 'done (dry run): a deploy would end with' : 'done');
  console.log(`    The site: ${outputs.SiteUrl} (CloudFront serves the new files within a few minutes)`);
  const domain = new URL(outputs.SiteUrl).host;
  console.log(
    `    Next: on a first deploy, point ${domain} at ${outputs.DistributionDomainName} (CNAME or alias) and publish the DkimRecord outputs; ` +
      `then sign up at ${outputs.SiteUrl}/signup and follow docs/deploy.md, "First owner".`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    await deploy(parseOptions(process.argv.slice(2)));
  } catch (err) {
    console.error(`[deploy] ${(err as Error).message}`);
    process.exit(1);
  }
}
