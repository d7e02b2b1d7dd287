/**
 * The bytes of the documentation page's renderer files (lib/docs/assets.json), read from the npm
 * package. This is the version that runs in-process (tests, tsx). In Lambda bundles the esbuild
 * plugin `docsAssetFiles` (esbuild.plugins.cjs) replaces this module with one that reads the files
 * Brotli-compressed from the function's package (`.build/docs-assets`), so the function needs no
 * node_modules and its JavaScript stays small.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ASSETS from './assets.json' with { type: 'json' };

export interface AssetData {
  /** The file as served without compression. */
  plain?: Buffer;
  /** The file Brotli-compressed (bundled builds only). */
  brotli?: Buffer;
}

const require = createRequire(import.meta.url);

export function assetData(name: string): AssetData | undefined {
  const entry = (ASSETS as Record<string, { file: string } | undefined>)[name];
  if (!entry || !Object.hasOwn(ASSETS, name)) return undefined;
  return { plain: readFileSync(require.resolve(entry.file)) };
}
