/**
 * Closing a report of a message (POST /api/dashboard/resolveMessageReport): it leaves the admins'
 * queue, the report keeps who closed it how, the audit log says so, and it closes once.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { handler as messageReportsHandler } from '#functions/dashboard/get-message-reports.ts';
import { handler as resolveHandler } from '#functions/dashboard/resolve-message-report.ts';
import { handler as reportMessageHandler } from '#functions/user/report-message.ts';
import { MessageReport, ResolvedMessageReport } from '#lib/conversations/schemas.ts';
import { listAuditEntries } from '#lib/db/audit.ts';
import { messageReportKey, messageReportQueueKey } from '#lib/db/keys.ts';
import { getItem } from '#lib/table/items.ts';
import { putBook } from '#tests/helpers/books.ts';
import { asked } from '#tests/helpers/conversations.ts';
import { invoke } from '#tests/helpers/lambda.ts';
import { expectOk, expectRefusal } from '#tests/helpers/schema.ts';
import { makeUser } from '#tests/helpers/users.ts';

const post = (handler: Parameters<typeof invoke>[0], route: string, token: string, body: unknown) =>
  invoke(handler, { method: 'POST', route, token, body });
const resolve = (token: string, body: unknown) =>
  post(resolveHandler, '/api/dashboard/resolveMessageReport', token, body);
const queue = async (token: string, conversationId: string) =>
  expectOk(
    await invoke(messageReportsHandler, {
      route: '/api/dashboard/getMessageReports',
      token,
      query: { limit: '100' },
    }),
    z.array(MessageReport),
  ).filter((r) => r.conversationId === conversationId);

/** Bea asks Sam about his book; Sam reports her message. */
async function reported() {
  const seller = await makeUser({ firstName: 'Sam' });
  const buyer = await makeUser({ firstName: 'Bea' });
  const admin = await makeUser({ permissionType: 1 });
  const book = await putBook({ ownerId: seller.id, ownerFirstName: 'Sam' });
  const { conversationId, message } = await asked(buyer.token, book.id, 'pay me first');
  const filed = await post(reportMessageHandler, '/api/user/reportMessage', seller.token, {
    conversationId,
    messageId: message.id,
    reason: 'scam',
  });
  expect(filed.status).toBe(200);
  const [entry] = await queue(admin.token, conversationId);
  if (!entry) throw new Error('the report is not in the queue');
  const body = { conversationId, messageId: message.id, reporterId: seller.id };
  return { seller, buyer, admin, body, entry };
}

describe('POST /api/dashboard/resolveMessageReport', () => {
  it('takes a handled report out of the queue, records who closed it how on the report, audited', async () => {
    const { admin, seller, body, entry } = await reported();
    const res = await resolve(admin.token, { ...body, action: 'handled' });
    expect(expectOk(res, ResolvedMessageReport)).toEqual({
      messageId: body.messageId,
      action: 'handled',
      resolved: true,
    });
    expect(await queue(admin.token, body.conversationId)).toEqual([]);
    expect(
      await getItem(messageReportQueueKey(entry.at, body.conversationId, body.messageId, seller.id)),
    ).toBeUndefined();
    const report = await getItem(messageReportKey(body.conversationId, body.messageId, seller.id));
    expect(report).toMatchObject({
      reason: 'scam',
      resolution: { action: 'handled', by: admin.id, at: expect.any(String) },
    });
    const audited = (await listAuditEntries(100, undefined)).items.filter(
      (e) => e.action === 'resolveMessageReport' && e.target.id === body.conversationId,
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actor: admin.id,
      target: { kind: 'conversation', id: body.conversationId },
      before: { messageId: body.messageId, reporterId: seller.id, reason: 'scam' },
      after: { resolution: 'handled' },
    });
  });

  it('closes a report once: a second dismissal is 409 ALREADY_RESOLVED and changes nothing', async () => {
    const { admin, seller, body } = await reported();
    expectOk(await resolve(admin.token, { ...body, action: 'dismiss' }), ResolvedMessageReport);
    const other = await makeUser({ permissionType: 1 });
    expectRefusal(await resolve(other.token, { ...body, action: 'handled' }), 409, 'ALREADY_RESOLVED');
    const report = await getItem(messageReportKey(body.conversationId, body.messageId, seller.id));
    expect(report?.resolution).toMatchObject({ action: 'dismiss', by: admin.id });
    const audited = (await listAuditEntries(100, undefined)).items.filter(
      (e) => e.action === 'resolveMessageReport' && e.target.id === body.conversationId,
    );
    expect(audited).toHaveLength(1);
  });

  it('refuses a student (403), an unknown report (404), a bad action or unknown field (400); the report stays', async () => {
    const { admin, buyer, seller, body } = await reported();
    expectRefusal(await resolve(seller.token, { ...body, action: 'dismiss' }), 403, 'ROLE_REQUIRED');
    expectRefusal(
      await resolve(admin.token, { ...body, reporterId: buyer.id, action: 'dismiss' }),
      404,
      'REPORT_NOT_FOUND',
    );
    expectRefusal(await resolve(admin.token, { ...body, action: 'ignore' }), 400, 'VALIDATION_FAILED');
    expectRefusal(
      await resolve(admin.token, { ...body, action: 'dismiss', note: 'x' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await queue(admin.token, body.conversationId)).toHaveLength(1);
    const report = await getItem(messageReportKey(body.conversationId, body.messageId, seller.id));
    expect(report?.resolution).toBeUndefined();
  });
});
