/**
 * The one Scan the project has: maintenance scripts walk the whole table with it (the service's
 * client refuses it, lib/db/client.ts). Kept out of lib/ so request code cannot import it.
 */
import type { ScanCommandInput, ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { commandOf } from '#lib/db/commands.ts';

export const ScanCommand = commandOf<ScanCommandInput, ScanCommandOutput>('Scan');
