/**
 * Validates packaged CloudFormation templates offline with AWS's own validator
 * (@aws/cloudformation-validate: resource schemas and rules, no AWS call): the root template in the
 * given package folder and every nested stack's template beside it (scripts/package/stacks.ts).
 * Prints each template's findings by severity and every ERROR or FATAL one; exit 1 on any.
 *
 *   npx tsx scripts/package/validate-templates.ts [.serverless ...]
 *
 * CI (.ci/run) runs it on the dev stage and on prod packaged with example --param values.
 */
import path from 'node:path';
import { RegoEngine, TemplateFile } from '@aws/cloudformation-validate';
import { ROOT_TEMPLATE, readStacks } from '#scripts/package/stacks.ts';

const FAILING = new Set(['ERROR', 'FATAL']);

const dirs = process.argv.slice(2);
if (dirs.length === 0) dirs.push('.serverless');
const engine = new RegoEngine();
let failures = 0;
try {
  for (const dir of dirs) {
    for (const { file } of readStacks(path.join(dir, ROOT_TEMPLATE))) {
      const report = engine.validateStandard(new TemplateFile(file));
      const counts: Record<string, number> = {};
      for (const d of report.diagnostics) counts[d.severity] = (counts[d.severity] ?? 0) + 1;
      console.log(`${path.relative(process.cwd(), file)}: ${JSON.stringify(counts)}`);
      for (const d of report.diagnostics.filter((x) => FAILING.has(x.severity))) {
        failures += 1;
        console.log(`  ${d.severity} ${d.ruleId} ${d.entity ? JSON.stringify(d.entity) : ''}: ${d.message}`);
      }
    }
  }
} finally {
  engine.free();
}
if (failures > 0) {
  console.error(`${failures} error(s) in the templates`);
  process.exit(1);
}
