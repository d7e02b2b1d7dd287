/**
 * The one Scan the project has: maintenance scripts walk the whole table with it (the service's
 * client refuses it, lib/table/client.ts). Kept out of lib/ so request code cannot import it.
 */
import type { ScanCommandInput, ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { commandOf } from '#lib/table/commands.ts';

export const ScanCommand = commandOf<ScanCommandInput, ScanCommandOutput>('Scan');
