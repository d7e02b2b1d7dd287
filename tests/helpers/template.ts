/**
 * Reading the packaged CloudFormation template (the `package` test tier, tests/setup/package.ts).
 */
import { readFileSync } from 'node:fs';
import { inject } from 'vitest';

export interface Resource {
  Type: string;
  // biome-ignore lint/suspicious/noExplicitAny: CloudFormation properties are free-form JSON read by tests.
  Properties: Record<string, any>;
  DependsOn?: string | string[];
  DeletionPolicy?: string;
}

export interface Template {
  Resources: Record<string, Resource>;
  Outputs?: Record<string, unknown>;
}

let cached: Template | undefined;

export function template(): Template {
  cached ??= JSON.parse(readFileSync(inject('templatePath'), 'utf8')) as Template;
  return cached;
}

/** Resources of one type, by logical id. */
export function resourcesOfType(type: string): Record<string, Resource> {
  return Object.fromEntries(Object.entries(template().Resources).filter(([, r]) => r.Type === type));
}

/** The Lambda functions by their serverless.yml name (logical id `<Name>LambdaFunction`). */
export function lambdaFunctions(): Record<string, Resource> {
  const out: Record<string, Resource> = {};
  for (const [id, r] of Object.entries(resourcesOfType('AWS::Lambda::Function'))) {
    const name = id.replace(/LambdaFunction$/, '');
    out[name.charAt(0).toLowerCase() + name.slice(1)] = r;
  }
  return out;
}

/** The function's environment variables. */
export function envOf(fn: Resource): Record<string, string> {
  return (fn.Properties.Environment?.Variables ?? {}) as Record<string, string>;
}
