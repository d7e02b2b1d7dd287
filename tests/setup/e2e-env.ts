import { inject } from 'vitest';
import { pointAtEmulators } from '#tests/setup/emulator-env.ts';

// End-to-end tests mostly speak HTTP; a few read state directly, so point config at the server's table.
pointAtEmulators();
process.env.TABLE_NAME = inject('e2eTable');
