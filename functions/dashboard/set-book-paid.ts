import { handoverStep } from '#functions/dashboard/route-kinds.ts';
import { setBookPaid } from '#lib/dashboard/handover.ts';

/** POST /api/dashboard/setBookPaid: delivered, seller paid (2 -> 3) (admin). */
export const handler = handoverStep('Mark a confirmed book delivered and paid (2 -> 3)', setBookPaid);
