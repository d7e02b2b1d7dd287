import { describe, expect, it } from 'vitest';
import { confirmationLink, confirmationMail, existingAccountMail, resetMail } from '#lib/accounts/mails.ts';
import { newEmailToken } from '#lib/accounts/rules.ts';
import { config } from '#lib/config.ts';
import { page } from '#lib/http/pages.ts';

const evilName = '<img src=x onerror=alert(1)>&"\'';

describe('account e-mails', () => {
  it('link to the service’s own confirmation route on PUBLIC_URL', () => {
    const { token } = newEmailToken();
    const mail = confirmationMail('a@uni.edu', 'Ada', token);
    const link = confirmationLink(token);
    expect(link).toBe(`${config.PUBLIC_URL.replace(/\/$/, '')}/api/auth/confirm/${token}`);
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.to).toBe('a@uni.edu');
  });

  it('escape user-provided text in the HTML part', () => {
    const { token } = newEmailToken();
    for (const mail of [
      confirmationMail('a@uni.edu', evilName, token),
      existingAccountMail('a@uni.edu', evilName),
      resetMail('a@uni.edu', evilName, token),
    ]) {
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain('&#60;img src=x onerror=alert(1)&#62;&#38;&#34;&#39;');
      expect(mail.text.length).toBeGreaterThan(0);
    }
  });

  it('put the reset token in the link and as a code', () => {
    const { token } = newEmailToken();
    const mail = resetMail('a@uni.edu', 'Ada', token);
    expect(mail.text).toContain(`token=${token}`);
    expect(mail.text).toContain(`Reset code: ${token}`);
    expect(mail.subject).toMatch(/Reset your Campus Books password/);
  });
});

describe('the confirmation page', () => {
  it('escapes everything it shows', () => {
    const html = page('Hi', `Welcome, ${evilName}`);
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;img');
  });
});
