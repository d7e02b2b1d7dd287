/**
 * zod for everything bundled into the functions: the tree-shakable `zod/mini` (issue 19; the
 * classic build's chained methods put ~190 KB into every bundle). zod/mini loads no locale, so
 * without `config` every issue would say just "Invalid input": the English messages are the ones
 * the API's 400 details quote. Import it as `import * as z from '#lib/zod.ts'`, never from 'zod'
 * or 'zod/mini' directly: a namespace re-exported as a named export (`import { z }`) defeats
 * esbuild's tree shaking and bundles all of zod/mini with every locale (~430 KB).
 */
import { en } from 'zod/locales';
import { config } from 'zod/mini';

config(en());

export * from 'zod/mini';
