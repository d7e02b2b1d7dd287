/**
 * The one write-or-check step of the generators (`npm run openapi`, its endpoints table,
 * `npm run web:api`): writes a generated file, or with `--check` (CI) fails when the committed copy
 * is not what the generator would write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface GeneratedFile {
  /** the repository's root, for the names in the messages */
  root: string;
  /** the file's path */
  file: string;
  /** the command that writes it, named in the out-of-date message */
  command: string;
  /** added to the "wrote" line, e.g. " (120 operations)" */
  wroteNote?: string;
}

/** The committed copy of a file, or '' when it is missing. */
export function committedText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Writes `text` to the file, or (with `--check` on the command line) exits 1 if the file differs. */
export function writeOrCheck(text: string, { root, file, command, wroteNote = '' }: GeneratedFile): void {
  const name = path.relative(root, file);
  if (process.argv.includes('--check')) {
    if (committedText(file) !== text) {
      console.error(`${name} is out of date: run \`${command}\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${name} is up to date.`);
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${name}${wroteNote}`);
  }
}
