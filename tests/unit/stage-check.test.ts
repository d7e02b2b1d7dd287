import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

// The local serverless plugin is CommonJS (serverless loads it with require).
const require = createRequire(import.meta.url);
const StageCheck = require('#infra/stage-check.cjs') as {
  new (serverless: unknown, options: { stage: string; param?: string | string[] }): { check: () => void };
  originList: (v: unknown) => string[];
  stageProblems: (stage: string, params: Record<string, string>) => string[];
  cliParams: (param: unknown) => Record<string, string>;
};
const { originList, stageProblems, cliParams } = StageCheck;

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

  it('takes --param values from the command line over serverless.yml, as osls does', () => {
    expect(cliParams(['domain=books.example.edu', 'note=a=b', 'flag'])).toEqual({
      domain: 'books.example.edu',
      note: 'a=b',
      flag: '',
    });
    expect(cliParams('alarmEmail=ops@example.edu')).toEqual({ alarmEmail: 'ops@example.edu' });
    const serverless = {
      service: { provider: { region: 'us-east-1' } },
      configurationInput: { params: { prod: { domain: '', certificateArn: '', alarmEmail: '' } } },
      classes: { Error },
    };
    expect(() => new StageCheck(serverless, { stage: 'prod' }).check()).toThrow(
      /params\.prod\.domain is missing/,
    );
    const param = Object.entries(complete).map(([k, v]) => `${k}=${v}`);
    expect(() => new StageCheck(serverless, { stage: 'prod', param }).check()).not.toThrow();
  });
});
