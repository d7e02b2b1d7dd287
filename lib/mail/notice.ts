/**
 * The short notice e-mail every notification with a page sends: a greeting, the notification's
 * words, one link to the page it talks about, the signature. Plain text, and HTML with the link as
 * an anchor; everything else escaped. Pure.
 */
import { escapeHtml } from './send.ts';

export function noticeMail(o: {
  subject: string;
  message: string;
  /** more paragraphs after the message (a receipt's books, total and next steps) */
  details?: string[];
  linkLabel: string;
  link: string;
}) {
  return (firstName: string) => {
    const linkLine = `${o.linkLabel}: ${o.link}`;
    const lines = [
      firstName ? `Hello ${firstName},` : 'Hello,',
      '',
      o.message,
      ...(o.details ?? []),
      linkLine,
      '',
      'Campus Books',
    ];
    return {
      subject: o.subject,
      text: lines.join('\n'),
      html: lines
        .map((l) =>
          l === ''
            ? '<br>'
            : l === linkLine
              ? `<p><a href="${escapeHtml(o.link)}">${escapeHtml(o.linkLabel)}</a></p>`
              : `<p>${escapeHtml(l)}</p>`,
        )
        .join('\n'),
    };
  };
}
