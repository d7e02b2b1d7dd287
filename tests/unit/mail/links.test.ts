import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#lib/config.ts';
import { appLinks, appPaths, trimBase } from '#lib/mail/links.ts';

const saved = {
  APP_URL: config.APP_URL,
  PUBLIC_URL: config.PUBLIC_URL,
  MAIL_FROM: config.MAIL_FROM,
  CONTACT_EMAIL: config.CONTACT_EMAIL,
};
const set = (v: Partial<typeof saved>) => Object.assign(config as Record<string, unknown>, v);
afterEach(() => set(saved));

describe('appLinks: every link in one place', () => {
  it('points the web app pages at APP_URL, trimmed, with escaped ids', () => {
    set({ APP_URL: 'https://books.example.edu//', PUBLIC_URL: 'https://api.example.edu' });
    expect(appLinks.order('o/1')).toBe('https://books.example.edu/orders/o%2F1');
    expect(appLinks.conversation('c1')).toBe('https://books.example.edu/messages/c1');
    expect(appLinks.resetPassword('t&1')).toBe('https://books.example.edu/reset-password?token=t%261');
    expect(appLinks.login()).toBe('https://books.example.edu/login');
    expect(appLinks.confirmation('t')).toBe('https://api.example.edu/api/auth/confirm/t');
  });

  it('falls back to PUBLIC_URL without a front end', () => {
    set({ APP_URL: undefined, PUBLIC_URL: 'https://api.example.edu/' });
    expect(appLinks.order('o1')).toBe('https://api.example.edu/orders/o1');
    expect(appLinks.login()).toBe('https://api.example.edu');
    expect(trimBase('https://x.test///')).toBe('https://x.test');
  });

  it('links the settings and forgot-password pages (web/src/shell/routes.tsx) and writes to MAIL_FROM', () => {
    set({ APP_URL: 'https://books.example.edu/', PUBLIC_URL: 'https://api.example.edu' });
    expect(appLinks.page(appPaths.settings())).toBe('https://books.example.edu/settings');
    expect(appLinks.page(appPaths.forgotPassword())).toBe('https://books.example.edu/forgot-password');
    set({ MAIL_FROM: 'Campus Books <help@books.example.edu>' });
    expect(appLinks.contact()).toBe('mailto:help@books.example.edu');
    set({ MAIL_FROM: 'help@books.example.edu' });
    expect(appLinks.contact()).toBe('mailto:help@books.example.edu');
    // a stage's own contact inbox wins over its (no-reply) sender
    set({ MAIL_FROM: 'Campus Books <no-reply@books.example.edu>', CONTACT_EMAIL: 'books@example.edu' });
    expect(appLinks.contact()).toBe('mailto:books@example.edu');
  });
});
