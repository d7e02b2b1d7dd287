import { inject } from 'vitest';

// End-to-end tests mostly speak HTTP; a few read state directly, so point config at the server's table.
process.env.STAGE = 'test';
process.env.DYNAMODB_ENDPOINT = inject('dynamoEndpoint');
process.env.SES_ENDPOINT = inject('sesUrl');
process.env.TABLE_NAME = inject('e2eTable');
process.env.S3_ENDPOINT = inject('s3Endpoint');
process.env.PHOTOS_BUCKET = 'campus-books-test-photos';
process.env.ISBN_LOOKUP_URL = inject('isbnStandinUrl');
process.env.PHOTOS_PUBLIC_URL = `${inject('s3Endpoint')}/campus-books-test-photos`;
process.env.LOG_LEVEL = process.env.LOG_LEVEL ?? 'CRITICAL';
