/**
 * A real EAN-13 barcode as a video for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * there is no ffmpeg here, so the Y4M file is written directly. Y4M is a text header, then frames of
 * raw 4:2:0 YUV: `FRAME\n`, the Y (brightness) plane, W*H bytes, and the U and V planes, W/2*H/2 bytes
 * each (128: no colour). The bars are drawn black on white in the Y plane, `module` pixels per module.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './web-stack.ts';

/** The standard EAN-13 digit codes: L (odd parity) for the left half; R is L inverted; G is R reversed. */
const L_CODES = [
  '0001101',
  '0011001',
  '0010011',
  '0111101',
  '0100011',
  '0110001',
  '0101111',
  '0111011',
  '0110111',
  '0001011',
];
const R_CODES = L_CODES.map((c) => [...c].map((b) => (b === '1' ? '0' : '1')).join(''));
const G_CODES = R_CODES.map((c) => [...c].reverse().join(''));
/** Which of the left six digits use L or G: the first digit is carried by this pattern. */
const PARITY = [
  'LLLLLL',
  'LLGLGG',
  'LLGGLG',
  'LLGGGL',
  'LGLLGG',
  'LGGLLG',
  'LGGGLL',
  'LGLGLG',
  'LGLGGL',
  'LGGLGL',
];

/** The 95 modules of an EAN-13 ('1' a bar): guard, six left digits, centre guard, six right digits, guard. */
export function ean13Modules(ean: string): string {
  if (!/^\d{13}$/.test(ean)) throw new Error(`not an EAN-13: ${ean}`);
  const d = [...ean].map(Number);
  const parity = PARITY[d[0] ?? 0] ?? '';
  const left = d
    .slice(1, 7)
    .map((digit, i) => (parity[i] === 'G' ? G_CODES : L_CODES)[digit])
    .join('');
  const right = d
    .slice(7)
    .map((digit) => R_CODES[digit])
    .join('');
  return `101${left}01010${right}101`;
}

/** A Y4M video of `frames` identical frames showing the barcode of `ean`, centred with a wide quiet zone. */
export function barcodeY4m(ean: string, { width = 640, height = 480, module = 3, frames = 10 } = {}): Buffer {
  const modules = ean13Modules(ean);
  const y = Buffer.alloc(width * height, 235);
  const left = Math.floor((width - modules.length * module) / 2);
  for (let row = Math.floor(height * 0.25); row < Math.floor(height * 0.75); row++)
    for (let m = 0; m < modules.length; m++)
      if (modules[m] === '1')
        y.fill(16, row * width + left + m * module, row * width + left + (m + 1) * module);
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

/**
 * A Chromium whose camera films the barcode of `ean`: a fake capture device fed a generated Y4M, the
 * permission granted without a prompt (the video file is fixed per launch, so it is a browser of its
 * own beside the web stack's). `close()` also removes the video.
 */
export async function chromiumFilming(
  ean: string,
): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'campus-books-camera-'));
  const video = path.join(dir, 'barcode.y4m');
  writeFileSync(video, barcodeY4m(ean));
  const browser = await launchChromium([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${video}`,
  ]);
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
