/**
 * Reads secrets from Secrets Manager with the SDK's client: a deployed function's configuration
 * (lib/config.ts) at cold start; the client is built only then. The client and its one command are
 * imported by name (a dynamic import of the package would keep every operation in each bundle,
 * ~27 KB against ~4 KB), so a bundle carries no other operation of the service.
 */
import {
  GetSecretValueCommand,
  SecretsManagerClient,
  type SecretsManagerClientConfig,
} from '@aws-sdk/client-secrets-manager';
import { clientOptions } from './client-options.ts';

/** The string of each secret id, by name, read in parallel (undefined when one holds no string). */
export async function readSecrets<Name extends string>(
  ids: Partial<Record<Name, string>>,
  settings: Pick<SecretsManagerClientConfig, 'region' | 'endpoint' | 'credentials'>,
): Promise<Partial<Record<Name, string | undefined>>> {
  const client = new SecretsManagerClient({ ...clientOptions, ...settings });
  try {
    const entries = await Promise.all(
      Object.entries<string | undefined>(ids).map(async ([name, id]) => {
        const out = await client.send(new GetSecretValueCommand({ SecretId: id }));
        return [name, out.SecretString] as const;
      }),
    );
    return Object.fromEntries(entries) as Partial<Record<Name, string | undefined>>;
  } finally {
    client.destroy();
  }
}
