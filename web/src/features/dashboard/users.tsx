/** The users tab: search, suspend and reinstate, and (owners) make or revoke admin. */
import { useInfiniteQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { DASHBOARD_CHANGES, usersQuery } from '#web/features/dashboard/queries.ts';
import { useSession } from '#web/session.ts';
import { ActionButton, ErrorNote, Field, StatusLine } from '#web/ui/form.tsx';
import { useAction, useSubmit } from '#web/ui/hooks.ts';
import { MoreButton, Section, Table } from '#web/ui/layout.tsx';

/** Suspend (with a reason) or reinstate one user; the service refuses what the caller may not do. */
function Suspension({
  user,
  done,
}: {
  user: { id: string; firstName: string; status: 'active' | 'suspended' };
  done: (said: string) => void;
}) {
  const [reason, setReason] = useState('');
  const suspend = useSubmit(
    async () => {
      const r = await call(api.PUT('/api/dashboard/suspendUser', { body: { userId: user.id, reason } }));
      done(`${user.firstName} is suspended; ${r.unlisted} listed books were unlisted.`);
    },
    ...DASHBOARD_CHANGES,
  );
  const reinstate = useSubmit(
    async () => {
      await call(api.PUT('/api/dashboard/reinstateUser', { body: { userId: user.id } }));
      done(`${user.firstName} is reinstated.`);
    },
    ...DASHBOARD_CHANGES,
  );
  const error = suspend.error ?? reinstate.error;
  const busy = suspend.busy || reinstate.busy;
  // only the move the user's status allows: a suspended user can be reinstated, an active one suspended
  if (user.status === 'suspended')
    return (
      <>
        <ErrorNote error={error} />
        <button type="button" onClick={() => reinstate.submit()} disabled={busy}>
          Reinstate {user.firstName}
        </button>
      </>
    );
  return (
    <form onSubmit={suspend.submit} className="inline">
      <Field
        name="reason"
        label={`Reason to suspend ${user.firstName}`}
        value={reason}
        onChange={setReason}
        error={error?.field('reason')}
      />
      <ErrorNote error={error} />
      <button type="submit" className="danger" disabled={busy}>
        Suspend {user.firstName}
      </button>
    </form>
  );
}

const joined = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

type User =
  paths['/api/dashboard/getUsers']['get']['responses'][200]['content']['application/json']['data'][number];

export function Users({ owner }: { owner: boolean }) {
  const session = useSession();
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const list = useInfiniteQuery(usersQuery(query));
  const act = useAction(...DASHBOARD_CHANGES);
  const [said, setSaid] = useState<string | null>(null);
  const search = (e: FormEvent) => {
    e.preventDefault();
    setQuery(text.trim());
  };
  // a role change says what it did (and is asked first: an admin sees every user's contacts)
  const role = (u: User, make: boolean) => async () => {
    const userId = u.id;
    await (make
      ? call(api.PUT('/api/dashboard/makeAdmin', { body: { userId } }))
      : call(api.PUT('/api/dashboard/revokeAdmin', { body: { userId } })));
    setSaid(
      make
        ? `${u.firstName} ${u.lastName} is now an admin; they get an e-mail asking them to turn on two-factor sign-in.`
        : `${u.firstName} ${u.lastName} is no longer an admin.`,
    );
  };
  return (
    <Section id="users-h" title="Users">
      <form onSubmit={search} className="search">
        <label htmlFor="user-q">Find by name, e-mail, campus or user id</label>
        <input
          id="user-q"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-invalid={list.error?.field('query') ? true : undefined}
          aria-describedby={list.error?.field('query') ? 'user-q-error' : undefined}
        />
        <button type="submit">Find</button>
        {list.error?.field('query') && (
          <span className="field-error" id="user-q-error">
            {list.error.field('query')}
          </span>
        )}
      </form>
      <ErrorNote error={list.error ?? act.error} />
      {said && <StatusLine key={said}>{said}</StatusLine>}
      {query && list.data?.length === 0 && (
        <p role="status">
          Nobody matches “{query}”. Try the start of a first or last name, a full name, an e-mail address, a
          campus domain or a user id.
        </p>
      )}
      <Table
        label="Users"
        rows={list.data}
        columns={{
          Name: (u) => `${u.firstName} ${u.lastName}`,
          'E-mail': (u) => u.emailAddress,
          Role: (u) => ['student', 'admin', 'owner'][u.permissionType],
          Status: (u) =>
            u.status === 'suspended' ? `Suspended${u.suspendReason ? `: ${u.suspendReason}` : ''}` : 'Active',
          Campus: (u) => u.campus,
          Joined: (u) => joined.format(new Date(u.createdAt)),
          ...(owner && {
            Action: (u: User) =>
              u.permissionType === 0 ? (
                <ActionButton
                  act={act}
                  action={role(u, true)}
                  confirm={`Make ${u.firstName} ${u.lastName} (${u.emailAddress}) an admin? Admins see every user's contact details and move purchases.`}
                >
                  Make {u.firstName} admin
                </ActionButton>
              ) : (
                u.permissionType === 1 && (
                  <ActionButton
                    act={act}
                    action={role(u, false)}
                    confirm={`Revoke the admin role of ${u.firstName} ${u.lastName}?`}
                  >
                    Revoke admin of {u.firstName}
                  </ActionButton>
                )
              ),
          }),
          // only what the caller may do: nobody suspends an owner or themselves, only an owner an admin
          Suspension: (u) =>
            u.permissionType < 2 &&
            u.id !== session?.userId &&
            (owner || u.permissionType === 0) && <Suspension user={u} done={setSaid} />,
        }}
      />
      <MoreButton list={list}>More users</MoreButton>
    </Section>
  );
}
