/**
 * docs/endpoints.md, a Markdown table of every operation of docs/openapi.json (grouped by tag:
 * method, path, who may call it, summary, the statuses it answers). Generated, never edited by
 * hand: `npm run openapi` writes it beside the document and `npm run openapi:check` (CI) and
 * tests/unit/docs/endpoints.test.ts fail when it is stale.
 */

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, unknown>>;
  responses?: Record<string, unknown>;
  'x-required-permission-type'?: number;
}

export interface OpenApiDocument {
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
}

const ROLES: Record<number, string> = { 1: 'admin', 2: 'owner' };

/** Who may call an operation, in the words of the contract. */
export function whoMayCall(op: Operation): string {
  const schemes = op.security ?? [];
  if (schemes.length === 0) return 'anyone';
  const names = schemes.map((s) => Object.keys(s).sort().join('+'));
  if (names.includes('basicAuth+apiKeyAuth') || names.includes('apiKeyAuth+basicAuth'))
    return 'Basic + `X-API-KEY`';
  if (names.includes('basicAuth')) return 'Basic';
  const role = op['x-required-permission-type'];
  if (role !== undefined && ROLES[role]) return ROLES[role];
  if (names.includes('bearerAuth')) return names.includes('') ? 'bearer or anyone' : 'bearer';
  return names.join(' or ');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

export function endpointsMarkdown(doc: OpenApiDocument): string {
  const rows = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const tagNames = [...(doc.tags ?? []).map((t) => t.name)];
  for (const r of rows) for (const t of r.op.tags ?? ['other']) if (!tagNames.includes(t)) tagNames.push(t);
  const lines = [
    '# Endpoints',
    '',
    '<!-- Generated from docs/openapi.json by `npm run openapi`; do not edit by hand. -->',
    '',
    'Every route of the service, from the OpenAPI document (`docs/openapi.json`, served at',
    "`GET /api/openapi.json`, readable at the web app's `/api-docs/`). The document has the request and response schemas, examples",
    'and error codes; this table is the overview. Marketplace answers are wrapped in the envelope',
    '`{ data, time, method }`.',
    '',
  ];
  for (const tag of tagNames) {
    const inTag = rows.filter((r) => (r.op.tags ?? ['other'])[0] === tag);
    if (inTag.length === 0) continue;
    const description = doc.tags?.find((t) => t.name === tag)?.description;
    lines.push(`## ${tag}`, '');
    if (description) lines.push(cell(description), '');
    lines.push('| method | path | who | what | answers |', '| --- | --- | --- | --- | --- |');
    for (const { path, method, op } of inTag) {
      const statuses = Object.keys(op.responses ?? {}).join(', ');
      lines.push(`| ${method} | \`${path}\` | ${whoMayCall(op)} | ${cell(op.summary ?? '')} | ${statuses} |`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
