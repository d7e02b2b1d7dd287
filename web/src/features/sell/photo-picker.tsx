/**
 * The Sell form's photos: up to five chosen before the book is posted (the file field offers the
 * camera on a phone), each shown as a thumbnail with a remove button. They are uploaded by the
 * Sell page right after the book is posted (web/src/ui/photo-upload.ts).
 */
import { useEffect, useId, useState } from 'react';
import { MAX_PHOTOS, PHOTO_TYPES, photoProblem } from '#web/ui/photo-upload.ts';

/**
 * A chosen file's thumbnail: read as a data: URL (the CSP's img-src allows data:, not blob:), shown
 * once read.
 */
function Preview({ file, alt }: { file: File; alt: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    const reader = new FileReader();
    reader.onload = () => setSrc(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
    return () => reader.abort();
  }, [file]);
  return src ? (
    <img src={src} alt={alt} width={96} height={96} />
  ) : (
    <span className="thumb-placeholder" aria-hidden="true" />
  );
}

/** A chosen file's identity: the same file chosen twice is kept once. */
const fileKey = (f: File) => `${f.name}|${f.size}|${f.lastModified}`;

/**
 * Each kept file's own React key, by object: two different photos may share a name and more (a
 * phone calls every camera photo image.jpg), and a shared key leaves a stale tile behind on removal.
 */
const tileKeys = new WeakMap<File, number>();
let nextTile = 0;
const tileKey = (f: File): number => {
  let key = tileKeys.get(f);
  if (key === undefined) {
    key = nextTile++;
    tileKeys.set(f, key);
  }
  return key;
};

export function PhotoPicker({
  files,
  onChange,
  disabled,
}: {
  files: File[];
  onChange: (files: File[]) => void;
  disabled: boolean;
}) {
  const id = useId();
  const [note, setNote] = useState<string | null>(null);
  const choose = (chosen: File[]) => {
    const have = new Set(files.map(fileKey));
    // the same file twice (in this choice too) is kept once
    const usable = chosen.filter((f) => {
      if (photoProblem(f) !== null || have.has(fileKey(f))) return false;
      have.add(fileKey(f));
      return true;
    });
    const room = MAX_PHOTOS - files.length;
    // each refused file by name, with what to choose instead
    const notes = [
      ...chosen.flatMap((f) => photoProblem(f) ?? []),
      ...(usable.length > room
        ? [`Only ${MAX_PHOTOS} photos per book: ${usable.length - room} not added.`]
        : []),
    ];
    setNote(notes.length > 0 ? notes.join(' ') : null);
    onChange([...files, ...usable.slice(0, Math.max(room, 0))]);
  };
  return (
    <div className="field">
      <label htmlFor={id}>Photos (optional)</label>
      <small id={`${id}-hint`}>
        Up to {MAX_PHOTOS}: JPEG, PNG or WebP, up to 5 MB each; on a phone you can take them with the camera.
      </small>
      <input
        id={id}
        type="file"
        accept={PHOTO_TYPES.join(',')}
        multiple
        aria-describedby={`${id}-hint`}
        disabled={disabled || files.length >= MAX_PHOTOS}
        onChange={(e) => {
          choose([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
      {note && (
        <p className="error" role="alert">
          {note}
        </p>
      )}
      {files.length > 0 && (
        <ul className="gallery">
          {files.map((f, i) => (
            <li key={tileKey(f)}>
              <Preview file={f} alt={`Photo ${i + 1}: ${f.name}`} />
              <button
                type="button"
                className="small"
                disabled={disabled}
                onClick={() => onChange(files.filter((_, j) => j !== i))}
              >
                Remove photo {i + 1}
                <span className="visually-hidden"> ({f.name})</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
