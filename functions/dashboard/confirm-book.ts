import { handoverStep } from '#functions/dashboard/route-kinds.ts';
import { confirmBook } from '#lib/dashboard/handover.ts';

/** POST /api/dashboard/confirmBook: condition verified, buyer charged (1 -> 2) (admin). */
export const handler = handoverStep('Confirm a bought book (1 -> 2)', confirmBook);
