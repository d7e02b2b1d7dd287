import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The local serverless plugin is CommonJS (serverless loads it with require).
const require = createRequire(import.meta.url);
const { originList, stageProblems } = require('#infra/stage-check.cjs') as {
  originList: (v: unknown) => string[];
  stageProblems: (stage: string, params: Record<string, string>) => string[];
};

const complete = {
  domain: 'books.example.edu',
  certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
  alarmEmail: 'ops@example.edu',
};

describe('stage check (infra/stage-check.cjs)', () => {
  it('splits a comma-separated CORS origin list into one origin each', () => {
    expect(originList(' https://a.example.edu, https://b.example.edu,,')).toEqual([
      'https://a.example.edu',
      'https://b.example.edu',
    ]);
  });

  it('passes a complete deployed stage and the emulated ones', () => {
    expect(stageProblems('prod', complete)).toEqual([]);
    expect(stageProblems('local', {})).toEqual([]);
    expect(stageProblems('test', {})).toEqual([]);
  });

  it('names exactly the missing or malformed value', () => {
    expect(stageProblems('prod', { ...complete, certificateArn: '' })).toEqual([
      expect.stringMatching(/^params\.prod\.certificateArn is missing/),
    ]);
    expect(
      stageProblems('staging', {
        ...complete,
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/00000000-0000-0000-0000-000000000000',
      }),
    ).toEqual([expect.stringMatching(/^params\.staging\.certificateArn is not valid/)]);
    expect(stageProblems('prod', { ...complete, domain: 'http://books' })).toEqual([
      expect.stringMatching(/^params\.prod\.domain is not valid/),
    ]);
  });
});
