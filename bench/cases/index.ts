/** Every benchmark case. A case whose handler module does not exist yet is reported as missing. */
import type { BenchCase } from '#bench/harness/types.ts';
import { accountCases } from './accounts.ts';
import { bookCases } from './books.ts';
import { cartCases } from './cart.ts';
import { conversationCases } from './conversations.ts';
import { lookupCases } from './lookup.ts';
import { matchingCases } from './matching.ts';

export const cases: BenchCase[] = [
  ...bookCases,
  ...matchingCases,
  ...cartCases,
  ...accountCases,
  ...conversationCases,
  ...lookupCases,
];
