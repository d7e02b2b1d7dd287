/**
 * What a route says about itself, for the OpenAPI document (scripts/openapi/). Marketplace handlers
 * built with `http()` carry a `RouteSpec` (lib/http/index.ts): their answers are enveloped. Routes
 * outside the envelope (the sample service, the API docs) carry a `RawRouteSpec` instead.
 * This module imports nothing at run time, so any handler can describe itself for free.
 */
import type * as z from '#lib/zod.ts';

/** Credentials a request must carry; all of a route's entries are needed together. */
export type Credential = 'bearer' | 'basic' | 'apiKey';

/**
 * A schema for the document: a zod schema, or a plain JSON Schema (draft 2020-12) for handlers
 * that must stay small (zod/mini adds ~30 KB minified to a bundle).
 */
export type SchemaSource = z.ZodMiniType | { json: Record<string, unknown> };

export interface RawResponse {
  description: string;
  /** e.g. `text/plain`, `application/json`, `text/html`; several when the route serves several; none for an empty body (a redirect). */
  contentType?: string | string[];
  /** Schema of the body (for JSON: the parsed body; otherwise the text). */
  schema?: SchemaSource;
  /** Response headers worth documenting: name -> description. */
  headers?: Record<string, string>;
  example?: unknown;
}

export interface RawRouteSpec {
  kind: 'raw';
  summary: string;
  description?: string;
  /** Credentials needed together (empty: none). */
  credentials: Credential[];
  /** Every status the route answers, with its body. */
  responses: Record<number, RawResponse>;
  /** Statuses answered with the marketplace error envelope (lib/http/schemas.ts). */
  errors?: number[];
  /** Path parameters, when the route has any. */
  params?: SchemaSource;
}

export const isRawSpec = (spec: unknown): spec is RawRouteSpec =>
  typeof spec === 'object' && spec !== null && (spec as { kind?: unknown }).kind === 'raw';
