/**
 * Reporting a message of the other side to the administrators (reportMessage): the message goes
 * to their queue of reported messages as it was, and they may read the conversation
 * (docs/conversations.md). A second report of the same message changes nothing.
 */
import { api, call } from '#web/api.ts';
import { ReportDisclosure } from '#web/ui/report.tsx';

const REASONS = {
  spam: 'Spam',
  scam: 'A scam (asks for money or details outside Campus Books)',
  harassment: 'Harassment',
  offensive: 'Offensive',
  other: 'Something else',
} as const;

export function ReportMessage({ conversationId, messageId }: { conversationId: string; messageId: string }) {
  return (
    <ReportDisclosure
      reasons={REASONS}
      className="report-message"
      summary="Report"
      question="What is wrong with it?"
      button="Report this message"
      thanks="Reported: the administrators will read this conversation."
      send={(report) =>
        call(api.POST('/api/user/reportMessage', { body: { conversationId, messageId, ...report } }))
      }
    />
  );
}
