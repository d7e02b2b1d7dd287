/** Every benchmark case. A case whose handler module does not exist yet is reported as missing. */
import type { BenchCase } from '../harness/types.ts';
import { bookCases } from './books.ts';

export const cases: BenchCase[] = [...bookCases];
