/**
 * A local Serverless plugin that checks the stage's own configuration (serverless.yml `params`)
 * before anything is built, so a deployed stage never runs with a value it silently lacks:
 *  - every stage but `local` and `test` must name its custom domain and ACM certificate; packaging
 *    refuses otherwise, naming the missing values (docs/deploy.md says where they come from);
 *  - API Gateway's CORS takes the same comma-separated `corsOrigins` list as the functions, split
 *    into one origin per entry (a single "a,b" entry would match no browser).
 * It needs no AWS credentials: it only reads the resolved configuration.
 */
'use strict';

const EMULATED = new Set(['local', 'test']);

/** The values a deployed stage cannot do without, with what they are for. */
const REQUIRED = {
  domain: 'the custom domain of the site, e.g. books.example.edu (web app at /, API at /api/*)',
  certificateArn: 'an ACM certificate for that domain, in us-east-1 (CloudFront only takes those)',
  alarmEmail: 'the address that receives the CloudWatch alarms',
};

const CHECKS = {
  domain: (v) => /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(v),
  certificateArn: (v) => /^arn:aws:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/.test(v),
  alarmEmail: (v) => /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v),
};

/** The problems with a stage's params (empty when it may be packaged). Exported for tests. */
function stageProblems(stage, params) {
  if (EMULATED.has(stage)) return [];
  const problems = [];
  for (const [name, what] of Object.entries(REQUIRED)) {
    const value = typeof params?.[name] === 'string' ? params[name].trim() : '';
    if (value === '') problems.push(`params.${stage}.${name} is missing: ${what}`);
    else if (!CHECKS[name](value))
      problems.push(`params.${stage}.${name} is not valid ("${value}"): ${what}`);
  }
  return problems;
}

/** "a, b,,c" -> ["a", "b", "c"] */
function originList(value) {
  return String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `--param a=1 --param b=x=y` (osls: a string or a list) -> { a: "1", b: "x=y" } */
function cliParams(param) {
  return Object.fromEntries(
    [param ?? []].flat().map((kv) => {
      const text = String(kv);
      const at = text.indexOf('=');
      return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
    }),
  );
}

class StageCheck {
  constructor(serverless, options) {
    this.serverless = serverless;
    this.options = options;
    this.hooks = { initialize: () => this.check() };
  }

  check() {
    const service = this.serverless.service;
    const stage = this.options.stage ?? service.provider.stage;
    const params = this.serverless.configurationInput?.params ?? {};
    // `--param key=value` on the command line wins over serverless.yml, as osls's ${param:} does.
    const merged = { ...(params.default ?? {}), ...(params[stage] ?? {}), ...cliParams(this.options.param) };
    const problems = stageProblems(stage, merged);
    const region = this.options.region ?? service.provider.region;
    if (!EMULATED.has(stage) && region !== 'us-east-1') {
      // The WAF web ACL of a CloudFront distribution can only be created in us-east-1.
      problems.push(
        `region is ${region}: a deployed stage lives in us-east-1 (CloudFront's WAF and certificate)`,
      );
    }
    if (problems.length > 0) {
      throw new this.serverless.classes.Error(
        `Stage "${stage}" cannot be packaged; set these in serverless.yml (see docs/deploy.md):\n  - ${problems.join('\n  - ')}`,
      );
    }
    const cors = service.provider.httpApi?.cors;
    if (cors && typeof cors === 'object' && Array.isArray(cors.allowedOrigins)) {
      cors.allowedOrigins = cors.allowedOrigins.flatMap(originList);
    }
  }
}

module.exports = StageCheck;
module.exports.stageProblems = stageProblems;
module.exports.originList = originList;
module.exports.cliParams = cliParams;
