import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handler as openapi } from '#functions/docs/openapi.ts';
import { PROJECT_ROOT } from '#scripts/openapi/routes.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectDocumented } from '#tests/helpers/openapi.ts';

describe('GET /api/openapi.json', () => {
  it('serves the committed docs/openapi.json', async () => {
    const res = await invoke(openapi, { route: '/api/openapi.json' });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual(
      JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'docs/openapi.json'), 'utf8')),
    );
    expectDocumented(res, 'GET', '/api/openapi.json');
    // a JSON document loads nothing and is framed nowhere
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  });
});
