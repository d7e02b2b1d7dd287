/**
 * The stacks of a packaged deployment: the root template osls writes and, beside it, the nested
 * stacks' templates (infra/split-stacks.cjs, one per area of HTTP functions). Used by the package
 * tests (tests/helpers/template.ts) and scripts/package-doubled.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface PackagedResource {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON.
  Properties: Record<string, any>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export interface PackagedTemplate {
  Resources: Record<string, PackagedResource>;
  Parameters?: Record<string, unknown>;
  Outputs?: Record<string, { Value: unknown }>;
}

/** One stack: `root`, or the logical id of its AWS::CloudFormation::Stack in the root. */
export interface PackagedStack {
  name: string;
  /** the template's file */
  file: string;
  template: PackagedTemplate;
}

/** CloudFormation's own limit is 500; this project keeps every stack below this one. */
export const RESOURCE_CEILING = 400;

export const ROOT_TEMPLATE = 'cloudformation-template-update-stack.json';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as PackagedTemplate;

/** The root stack first, then every nested stack, read from the files beside `rootFile`. */
export function readStacks(rootFile: string): PackagedStack[] {
  const root = read(rootFile);
  const out: PackagedStack[] = [{ name: 'root', file: rootFile, template: root }];
  for (const [id, r] of Object.entries(root.Resources)) {
    if (r.Type !== 'AWS::CloudFormation::Stack') continue;
    // TemplateURL: Fn::Join of https://<s3>, the bucket, the artifact folder, and the file name.
    const parts = r.Properties.TemplateURL?.['Fn::Join']?.[1];
    const file = Array.isArray(parts) ? parts.at(-1) : undefined;
    if (typeof file !== 'string') throw new Error(`${id}: unexpected TemplateURL`);
    const nested = path.join(path.dirname(rootFile), file);
    out.push({ name: id, file: nested, template: read(nested) });
  }
  return out;
}

/** Each stack's resource count, biggest first. */
export function resourceCounts(stacks: PackagedStack[]): { name: string; resources: number }[] {
  return stacks
    .map((s) => ({ name: s.name, resources: Object.keys(s.template.Resources).length }))
    .sort((a, b) => b.resources - a.resources);
}
