/** Tells the administrators that a listing breaks the rules (once per student and book). */
import { api, call } from '#web/api.ts';
import type { BookDetail } from '#web/books.ts';
import { ReportDisclosure } from '#web/ui/report.tsx';

const REPORT_REASONS = {
  spam: 'Spam or a fake listing',
  prohibited: 'Not allowed on this site',
  'wrong-info': 'Wrong title, edition or condition',
  offensive: 'Offensive',
  other: 'Something else',
} as const;

export function ReportForm({ book }: { book: BookDetail }) {
  return (
    <ReportDisclosure
      reasons={REPORT_REASONS}
      className="report"
      summary="Report this listing"
      question="What is wrong?"
      button={`Report ${book.name}`}
      thanks="Thank you: the administrators will look at this listing."
      send={(report) => call(api.POST('/api/books/reportBook', { body: { bookId: book.id, ...report } }))}
    />
  );
}
