/**
 * Makes an existing, confirmed user an owner (permissionType 2), found by e-mail address.
 *
 *   npm run promote-owner -- someone@uni.edu
 *   npm run promote-owner -- --revoke someone@uni.edu   (an owner becomes an admin again)
 *
 * Uses the same configuration as the service (lib/config.ts): TABLE_NAME, AWS_REGION and, for a
 * deployed stage, STAGE and SSM_SECRETS_PATH or JWT_SECRET. On the local stage (STAGE unset or
 * `local`) it talks to the DynamoDB Local of `npm start` (DYNAMODB_ENDPOINT, default
 * http://127.0.0.1:$DYNAMODB_PORT or 8000) and its table campus-books-local.
 */
const args = process.argv.slice(2).filter((a) => a !== '--');
const revoke = args.includes('--revoke');
const email = args.find((a) => !a.startsWith('--'));
if (!email) {
  console.error('usage: npm run promote-owner -- [--revoke] someone@uni.edu');
  process.exit(2);
}
const stage = process.env.STAGE?.trim() || 'local';
if ((stage === 'local' || stage === 'test') && !process.env.DYNAMODB_ENDPOINT) {
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${process.env.DYNAMODB_PORT ?? '8000'}`;
}
process.env.TABLE_NAME ??= `campus-books-${stage}`;
process.env.LOG_LEVEL ??= 'ERROR';

const { promoteOwner, revokeOwner } = await import('#lib/accounts/profile.ts');
const { DomainError } = await import('#lib/errors.ts');
try {
  const user = revoke ? await revokeOwner(email) : await promoteOwner(email);
  console.log(
    revoke
      ? `${user.emailAddress} (${user.id}) is an admin again (permissionType 1) on table ${process.env.TABLE_NAME}.`
      : `${user.emailAddress} (${user.id}) is now an owner (permissionType 2) on table ${process.env.TABLE_NAME}.`,
  );
} catch (err) {
  console.error(err instanceof DomainError ? err.message : err);
  process.exit(1);
}
