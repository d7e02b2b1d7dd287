/**
 * CloudFront's response headers policies for the web app, generated at package time from the one
 * source of its security headers, web/src/csp.ts (the local server sends the same):
 *   ResponseHeadersPolicyConfig: ${file(./infra/web-headers.cjs):app}     every file but hashed ones
 *   ResponseHeadersPolicyConfig: ${file(./infra/web-headers.cjs):hashed}  assets/* (content-hashed)
 *   ResponseHeadersPolicyConfig: ${file(./infra/web-headers.cjs):docs}    api-docs/* (Swagger UI's policy)
 * The CSP's connect-src carries the photos bucket's S3 origin, where the browser POSTs uploads
 * (`Fn::Sub` on the bucket's name, known at deploy time); the same origin is the stack's
 * PhotosUploadOrigin output, which `npm run deploy` gives the web build as VITE_PHOTOS_URL.
 * tests/package/web-headers.test.ts checks the packaged policies against the local server.
 */
'use strict';

const { require: tsxRequire } = require('tsx/cjs/api');

const { apiDocsPolicy, securityHeaders, CACHE_CONTROL } = tsxRequire('../web/src/csp.ts', __filename);

/** The photo bucket's origin for presigned POSTs (virtual-hosted style, the SDK's default). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: CloudFormation's Fn::Sub, not a JS template
const PHOTOS_UPLOAD_ORIGIN = 'https://${PhotosBucket}.s3.${AWS::Region}.amazonaws.com';

/** CloudFront's typed security headers, by the header each one sends. */
const typed = {
  'content-security-policy': (value) => ({
    ContentSecurityPolicy: { ContentSecurityPolicy: { 'Fn::Sub': value }, Override: true },
  }),
  'x-content-type-options': (value) => {
    if (value !== 'nosniff')
      throw new Error(`CloudFront can only send X-Content-Type-Options: nosniff, not ${value}`);
    return { ContentTypeOptions: { Override: true } };
  },
  'referrer-policy': (value) => ({ ReferrerPolicy: { ReferrerPolicy: value, Override: true } }),
};

/** One policy config: every header of web/src/csp.ts, plus the Cache-Control of its files. */
async function policy(resolveVariable, suffix, cacheControl, csp) {
  const service = await resolveVariable('self:service');
  const stage = await resolveVariable('sls:stage');
  let security = {};
  const custom = [];
  const headers = {
    ...securityHeaders({ photoOrigins: [PHOTOS_UPLOAD_ORIGIN] }),
    'Cache-Control': cacheControl,
    ...(csp ? { 'Content-Security-Policy': csp } : {}),
  };
  for (const [name, value] of Object.entries(headers)) {
    const toTyped = typed[name.toLowerCase()];
    if (toTyped) security = { ...security, ...toTyped(value) };
    else custom.push({ Header: name, Value: value, Override: true });
  }
  return {
    Name: `${service}-${stage}-web-${suffix}`,
    Comment: 'web/src/csp.ts (infra/web-headers.cjs)',
    SecurityHeadersConfig: security,
    CustomHeadersConfig: { Items: custom },
  };
}

module.exports = {
  app: ({ resolveVariable }) => policy(resolveVariable, 'app', CACHE_CONTROL.other),
  hashed: ({ resolveVariable }) => policy(resolveVariable, 'hashed', CACHE_CONTROL.hashed),
  // the API documentation page (web/api-docs.ts, /api-docs/*): the same headers, its own CSP
  docs: ({ resolveVariable }) => policy(resolveVariable, 'docs', CACHE_CONTROL.other, apiDocsPolicy()),
  photosUploadOrigin: { 'Fn::Sub': PHOTOS_UPLOAD_ORIGIN },
};
