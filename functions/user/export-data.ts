import { http } from '#lib/http/index.ts';
import { DataExport, exportData } from '#lib/privacy/export.ts';

/** GET /api/user/exportData: everything held about the caller as one JSON document, never secrets. */
export const handler = http(
  { response: DataExport, errors: [404], summary: 'Export all of the caller’s data' },
  async ({ principal }) => exportData(principal.userId),
);
