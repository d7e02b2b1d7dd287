/**
 * The "Two-factor sign-in" section of `/settings`, for admins and owners: enrol (a QR code of the
 * otpauth:// URI, drawn by the `qrcode` library loaded only here, and the secret as text for typing
 * it in), confirm with a code, the 10 recovery codes shown once; or turn it off (password and code).
 * The service never answers the secret again after confirmation (docs/security.md).
 */
import { useEffect, useState } from 'react';
import { type ApiFailure, api, call } from '#web/api.ts';
import { replaceToken } from '#web/session.ts';
import { Field, Form, passwordField } from '#web/ui/form.tsx';
import { useFields, useSubmit } from '#web/ui/hooks.ts';
import { Section } from '#web/ui/layout.tsx';

type Stage =
  | { kind: 'start' }
  | { kind: 'scan'; uri: string; secret: string }
  | { kind: 'codes'; recoveryCodes: string[] }
  | { kind: 'on' };

/** The QR code of an otpauth:// URI as an SVG data URL (the library is fetched when first needed). */
function QrCode({ uri }: { uri: string }) {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(async (qr) => {
      const svg = await qr.toString(uri, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return src ? (
    <img src={src} width={200} height={200} alt="QR code to scan with an authenticator app" />
  ) : (
    <p>Drawing the QR code…</p>
  );
}

export function TwoFactorSection() {
  const [stage, setStage] = useState<Stage>({ kind: 'start' });
  const enrol = useSubmit(async () => {
    try {
      const data = await call(api.POST('/api/auth/enrollTotp', {}));
      setStage({ kind: 'scan', ...data });
    } catch (err) {
      if ((err as ApiFailure).body?.code === 'TOTP_ACTIVE') setStage({ kind: 'on' });
      else throw err;
    }
  });
  return (
    <Section id="mfa-h" title="Two-factor sign-in">
      {stage.kind === 'start' && (
        <Form
          onSubmit={enrol.submit}
          error={enrol.error}
          busy={enrol.busy}
          button="Set up two-factor sign-in"
        >
          <p>As an admin or owner, sign in with a code from an authenticator app as well as your password.</p>
        </Form>
      )}
      {stage.kind === 'scan' && (
        <ConfirmForm {...stage} onDone={(recoveryCodes) => setStage({ kind: 'codes', recoveryCodes })} />
      )}
      {stage.kind === 'codes' && <RecoveryCodes codes={stage.recoveryCodes} />}
      {stage.kind === 'on' && <DisableForm onDone={() => setStage({ kind: 'start' })} />}
    </Section>
  );
}

function ConfirmForm({
  uri,
  secret,
  onDone,
}: {
  uri: string;
  secret: string;
  onDone: (codes: string[]) => void;
}) {
  const { form, bind } = useFields({ code: '' });
  const { error, busy, submit } = useSubmit(async () => {
    const { recoveryCodes, token } = await call(api.POST('/api/auth/confirmTotp', { body: form }));
    // the code just confirmed is a second factor: this session's new token (and cookie) carry it
    replaceToken(token);
    onDone(recoveryCodes);
  });
  return (
    <Form onSubmit={submit} noValidate error={error} busy={busy} button="Turn on two-factor sign-in">
      <p>Scan this QR code with your authenticator app, or type the key into it.</p>
      <QrCode uri={uri} />
      <p>
        Key: <code data-testid="totp-secret">{secret}</code>
      </p>
      <Field label="Code from the app" autoComplete="one-time-code" {...bind('code', error)} />
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status">
      <p>
        Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without the
        app. They are shown only now.
      </p>
      <p>This session was opened without a code: where the dashboard needs one, log out and in again.</p>
      <ul data-testid="recovery-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const { form, bind } = useFields({ password: '', code: '' });
  const { error, busy, submit } = useSubmit(async () => {
    await call(api.POST('/api/auth/disableTotp', { body: form }));
    onDone();
  });
  return (
    <Form onSubmit={submit} noValidate error={error} busy={busy} button="Turn off two-factor sign-in">
      <p>Two-factor sign-in is on. To turn it off, enter your password and a code.</p>
      <Field {...passwordField('Password', 'current')} {...bind('password', error)} />
      <Field label="Code (or a recovery code)" autoComplete="one-time-code" {...bind('code', error)} />
    </Form>
  );
}
