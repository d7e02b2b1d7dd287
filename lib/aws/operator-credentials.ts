/**
 * Credentials for an operator's script on a profile, SSO or an instance role: the SDK's default
 * chain, loaded only when the environment carries none (lib/aws/json-client.ts).
 *
 * A function never gets here: Lambda puts its credentials in the environment. So the functions'
 * bundles replace this module with one that says so (esbuild.plugins.cjs), and leave out the chain
 * and the SDK core it pulls in (~95 KB that every cold start parsed and never ran, issue 19).
 */
import type { Credentials } from './sigv4.ts';

export async function operatorCredentials(): Promise<Credentials & { expiration?: Date }> {
  const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
  return defaultProvider()();
}
