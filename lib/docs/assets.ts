/**
 * Serves the renderer's files with content negotiation: Brotli when the build inlined it and the
 * client takes it, else gzip (made once per container), else plain.
 */
import { brotliDecompressSync, gzipSync } from 'node:zlib';
import { assetData } from './asset-data.ts';
import ASSETS from './assets.json' with { type: 'json' };

export const ASSET_NAMES = Object.keys(ASSETS).sort();

export interface EncodedAsset {
  contentType: string;
  encoding: 'br' | 'gzip' | 'identity';
  body: Buffer;
}

const gzipped = new Map<string, Buffer>();
const plainCache = new Map<string, Buffer>();

/** Does an Accept-Encoding header accept `coding` (q > 0)? */
export function accepts(acceptEncoding: string | undefined, coding: string): boolean {
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim() !== coding && name?.trim() !== '*') continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  }
  return false;
}

/** The asset named `name` in the best encoding the client accepts; undefined when there is none. */
export function encodedAsset(name: string, acceptEncoding: string | undefined): EncodedAsset | undefined {
  const meta = (ASSETS as Record<string, { contentType: string } | undefined>)[name];
  if (!meta || !Object.hasOwn(ASSETS, name)) return undefined;
  const data = assetData(name);
  if (!data) return undefined;
  const { contentType } = meta;
  if (data.brotli && accepts(acceptEncoding, 'br')) return { contentType, encoding: 'br', body: data.brotli };
  let plain = plainCache.get(name) ?? data.plain;
  if (!plain && data.brotli) plain = brotliDecompressSync(data.brotli);
  if (!plain) return undefined;
  plainCache.set(name, plain);
  if (accepts(acceptEncoding, 'gzip')) {
    let gz = gzipped.get(name);
    if (!gz) {
      gz = gzipSync(plain, { level: 6 });
      gzipped.set(name, gz);
    }
    return { contentType, encoding: 'gzip', body: gz };
  }
  return { contentType, encoding: 'identity', body: plain };
}
