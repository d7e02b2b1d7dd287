/**
 * The barcode decoder for browsers without a BarcodeDetector (Chromium on Linux, Firefox, Safari
 * before 17): the `barcode-detector` ponyfill, ZXing-C++ compiled to WebAssembly. Imported only when
 * a scan starts (barcode-scan.tsx), so it is a chunk of its own outside the initial JavaScript
 * budget. The .wasm file is a hashed asset of this build, served from the app's own origin (the
 * package would fetch it from a public CDN, which the CSP forbids); compiling it needs the CSP's
 * `'wasm-unsafe-eval'` (BROWSER_FEATURES in web/src/csp.ts).
 */
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/** A detector of EAN-13 barcodes, once the decoder is fetched and compiled. */
export async function zxingEanDetector(): Promise<BarcodeDetector> {
  await prepareZXingModule({
    overrides: {
      locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? wasmUrl : prefix + file),
    },
    fireImmediately: true,
  });
  return new BarcodeDetector({ formats: ['ean_13'] });
}
