/**
 * What code prints: every line written to this process's real stdout and stderr while `run` runs
 * (the writes are kept from the terminal, nothing else is replaced), with the stream each went to.
 */
import { vi } from 'vitest';

export interface PrintedLine {
  text: string;
  stream: 'stdout' | 'stderr';
}

export async function printedLines(run: () => unknown): Promise<PrintedLine[]> {
  const lines: PrintedLine[] = [];
  for (const stream of ['stdout', 'stderr'] as const) {
    vi.spyOn(process[stream], 'write').mockImplementation((chunk: string | Uint8Array) => {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push({ text, stream });
      return true;
    });
  }
  try {
    await run();
  } finally {
    vi.mocked(process.stdout.write).mockRestore();
    vi.mocked(process.stderr.write).mockRestore();
  }
  return lines;
}
