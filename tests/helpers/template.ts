/**
 * Reading the packaged CloudFormation templates (the `package` test tier, tests/setup/package.ts).
 * The deployment is a root stack and one nested stack per area of HTTP functions
 * (infra/stacks-map.cjs): `stacks()` gives each stack's own template, `template()` one merged view
 * of them all, as if they were one stack (a nested stack's parameters replaced by what the root
 * passes in, the root's reads of nested outputs by the outputs' values), so a test states a rule once
 * whichever stack holds the resource.
 */
import { inject } from 'vitest';
import {
  type PackagedResource,
  type PackagedStack,
  type PackagedTemplate,
  readStacks,
} from '#scripts/package/stacks.ts';

export type Resource = PackagedResource;
export type Template = PackagedTemplate;
export type Stack = PackagedStack;

let cachedStacks: Stack[] | undefined;

/** The root stack first, then every nested stack, each with its own template. */
export function stacks(): Stack[] {
  cachedStacks ??= readStacks(inject('templatePath'));
  return cachedStacks;
}

/** The stack that holds a resource (`root` or a nested stack's logical id). */
export function stackOf(logicalId: string): string | undefined {
  return stacks().find((s) => logicalId in s.template.Resources)?.name;
}

/** Replaces every JSON node for which `f` answers a value, depth first. */
function substitute(value: unknown, f: (node: Record<string, unknown>) => unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, f));
  if (value && typeof value === 'object') {
    const node = value as Record<string, unknown>;
    const replaced = f(node);
    if (replaced !== undefined) return replaced;
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, substitute(v, f)]));
  }
  return value;
}

let cached: Template | undefined;

/** Every stack's resources in one template, references written as in a single stack. */
export function template(): Template {
  if (cached) return cached;
  const [root, ...nested] = stacks();
  if (!root) throw new Error('no packaged template');
  const byStack = new Map(nested.map((s) => [s.name, s.template]));
  const outputOf = (node: Record<string, unknown>) => {
    const att = node['Fn::GetAtt'];
    if (!Array.isArray(att) || typeof att[1] !== 'string' || !att[1].startsWith('Outputs.')) return undefined;
    const stack = byStack.get(att[0]);
    const output = stack?.Outputs?.[att[1].slice('Outputs.'.length)];
    if (!stack || !output) throw new Error(`no output ${att.join('.')}`);
    return inStackTerms(att[0], output.Value);
  };
  const inStackTerms = (name: string, value: unknown): unknown => {
    const stack = byStack.get(name);
    const passed = root.template.Resources[name]?.Properties.Parameters ?? {};
    return substitute(value, (node) => {
      const ref = node.Ref;
      if (typeof ref === 'string' && stack?.Parameters && ref in stack.Parameters) {
        if (!(ref in passed)) throw new Error(`${name} is not given its parameter ${ref}`);
        return passed[ref];
      }
      return undefined;
    });
  };
  const merged: Template = {
    Resources: substitute(root.template.Resources, outputOf) as Record<string, Resource>,
    Outputs: substitute(root.template.Outputs ?? {}, outputOf) as Template['Outputs'],
  };
  for (const s of nested) {
    for (const [id, r] of Object.entries(s.template.Resources)) {
      if (id in merged.Resources) throw new Error(`${id} is in two stacks`);
      merged.Resources[id] = inStackTerms(s.name, r) as Resource;
    }
  }
  cached = merged;
  return merged;
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
