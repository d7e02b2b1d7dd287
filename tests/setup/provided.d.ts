import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesUrl: string;
    apiUrl: string;
    e2eTable: string;
    s3Endpoint: string;
    /** the Open Library stand-in (scripts/local/isbn-standin.ts) */
    isbnStandinUrl: string;
    templatePath: string;
    /** the TMPDIR the packaging ran with; with PACKAGED_TEMPLATE, PACKAGED_TMP or null */
    packageTmp: string | null;
  }
}
