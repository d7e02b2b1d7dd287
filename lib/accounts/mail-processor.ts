/**
 * The stream consumer's half of the public e-mail routes (functions/streams/processors.ts): a new
 * request is claimed, then the address is looked up and the e-mail sent. A failure gives the claim
 * back and fails the record, so the stream retries it; a redelivered record finds it claimed.
 */

import { isMailRequestKey } from '#lib/db/keys.ts';
import { claimMailRequest, type MailRequestRecord, releaseMailRequest } from '#lib/db/mail-requests.ts';
import type { ChangeProcessor } from '#lib/streams/types.ts';
import { sendPasswordReset } from './password.ts';
import { sendConfirmationAgain } from './signup.ts';

export const accountMailProcessor: ChangeProcessor = {
  name: 'account-mail',
  wants: (c) => c.eventName === 'INSERT' && isMailRequestKey(c.keys),
  apply: async (c) => {
    const request = c.newImage as MailRequestRecord;
    if (!(await claimMailRequest(request.id))) return;
    try {
      const send = request.kind === 'password-reset' ? sendPasswordReset : sendConfirmationAgain;
      await send(request.emailNormalised, new Date());
    } catch (err) {
      await releaseMailRequest(request.id);
      throw err;
    }
  },
};
