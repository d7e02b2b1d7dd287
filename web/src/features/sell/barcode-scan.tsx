/**
 * "Scan the barcode" on the Sell form (issue 33, item 2): opens the camera (the rear one on a
 * phone), reads the EAN-13 on the back of the book and hands its ISBN to the form, whose lookup
 * then fills the rest (isbn-lookup.tsx). The decoder is the browser's BarcodeDetector where it has
 * one that reads EAN-13, else the ZXing WebAssembly ponyfill (zxing.ts), imported only now. The
 * camera stops when a book's ISBN is read, on Cancel and when the form goes away; each outcome is
 * one sentence in a live status line and the focus goes back to the ISBN field. Typing always works.
 */
import { useEffect, useRef, useState } from 'react';

/** A book's ISBN-13 from an EAN-13, or null: only the 978 and 979 prefixes ("Bookland") are books. */
export const isbnFromEan = (raw: string): string | null => (/^97[89]\d{10}$/.test(raw) ? raw : null);

export const SCAN_MESSAGES = {
  starting: 'Starting the camera…',
  aim: 'Point the camera at the barcode on the back of the book.',
  notABook: 'That is not a book’s ISBN barcode: point the camera at the one on the back cover.',
  read: (isbn: string) => `Read ISBN ${isbn}.`,
  cancelled: 'Scanning stopped: type the ISBN, or scan again.',
  refused: 'The camera is not allowed for this site: type the ISBN instead.',
  noCamera: 'No camera could be used: type the ISBN instead.',
  noDecoder: 'The barcode reader could not be loaded: type the ISBN instead.',
} as const;

interface Detector {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type NativeDetector = {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
};

async function eanDetector(): Promise<Detector> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetector }).BarcodeDetector;
  if (Native && (await Native.getSupportedFormats()).includes('ean_13'))
    return new Native({ formats: ['ean_13'] });
  return (await import('#web/features/sell/zxing.ts')).zxingEanDetector();
}

/** getUserMedia's refusals (permission, an insecure page) against a missing or busy camera. */
const cameraProblem = (e: unknown) =>
  e instanceof DOMException && (e.name === 'NotAllowedError' || e.name === 'SecurityError')
    ? SCAN_MESSAGES.refused
    : SCAN_MESSAGES.noCamera;

/** How often a frame is read while the camera is on. */
const FRAME_MS = 150;

type Session = { stopped: boolean; stream?: MediaStream; timer?: number };

/** Stops reading frames and lets the camera go (its light goes off). */
function endSession(s: Session | null): void {
  if (!s) return;
  s.stopped = true;
  window.clearTimeout(s.timer);
  for (const track of s.stream?.getTracks() ?? []) track.stop();
}

export function BarcodeScan({ onIsbn }: { onIsbn: (isbn13: string) => void }) {
  const [scanning, setScanning] = useState(false);
  const [status, setStatus] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const session = useRef<Session | null>(null);

  const stopCamera = () => {
    endSession(session.current);
    session.current = null;
    if (video.current) video.current.srcObject = null;
  };
  // The camera never outlives the form.
  useEffect(() => () => endSession(session.current), []);
  useEffect(() => {
    if (scanning) cancel.current?.focus();
  }, [scanning]);

  const finish = (message: string) => {
    stopCamera();
    setScanning(false);
    setStatus(message);
    const field = root.current?.closest('form')?.elements.namedItem('ISBN');
    if (field instanceof HTMLElement) field.focus();
  };

  const start = async () => {
    if (!navigator.mediaDevices?.getUserMedia) return finish(SCAN_MESSAGES.noCamera);
    const s: Session = { stopped: false };
    session.current = s;
    setScanning(true);
    setStatus(SCAN_MESSAGES.starting);
    try {
      s.stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'environment' },
        audio: false,
      });
    } catch (e) {
      if (!s.stopped) finish(cameraProblem(e));
      return;
    }
    // Cancelled while the browser was asking: the camera just granted is let go at once.
    if (s.stopped) return endSession(s);
    const v = video.current;
    if (v) {
      v.srcObject = s.stream;
      void v.play().catch(() => undefined);
    }
    let detector: Detector;
    try {
      detector = await eanDetector();
    } catch {
      if (!s.stopped) finish(SCAN_MESSAGES.noDecoder);
      return;
    }
    if (s.stopped) return;
    setStatus(SCAN_MESSAGES.aim);
    const readFrame = async () => {
      if (s.stopped) return;
      if (v && v.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
        const codes = await detector.detect(v).catch(() => []);
        if (s.stopped) return;
        const isbn = codes.map((c) => isbnFromEan(c.rawValue)).find(Boolean);
        if (isbn) {
          onIsbn(isbn);
          return finish(SCAN_MESSAGES.read(isbn));
        }
        if (codes.length > 0) setStatus(SCAN_MESSAGES.notABook);
      }
      s.timer = window.setTimeout(readFrame, FRAME_MS);
    };
    void readFrame();
  };

  return (
    <div ref={root} className="scan">
      {scanning ? (
        <button ref={cancel} type="button" onClick={() => finish(SCAN_MESSAGES.cancelled)}>
          Cancel
        </button>
      ) : (
        <button type="button" onClick={start}>
          Scan the barcode
        </button>
      )}
      <video ref={video} hidden={!scanning} muted playsInline aria-label="What the camera sees" />
      <p role="status" className="muted">
        {status}
      </p>
    </div>
  );
}
