import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    sesUrl: string;
    apiUrl: string;
    e2eTable: string;
    s3Endpoint: string;
    templatePath: string;
  }
}
