/**
 * The "Hand-over points" tab: the points of one campus (the administrator's own at first) with
 * their weekly hours; add a point, change one, remove one (docs/handover.md). Students propose
 * hand-overs only at these points, so a campus without one cannot agree a hand-over.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { api, call } from '#web/api.ts';
import { CampusFilter } from '#web/features/dashboard/campus-filter.tsx';
import { campusPointsQuery, DASHBOARD_CHANGES } from '#web/features/dashboard/queries.ts';
import { profileQuery } from '#web/queries.ts';
import { ActionButton, ErrorNote, Field, StatusLine } from '#web/ui/form.tsx';
import { hoursText } from '#web/ui/handover.ts';
import { useAction } from '#web/ui/hooks.ts';
import { Section } from '#web/ui/layout.tsx';

type Point =
  paths['/api/dashboard/getHandoverPoints']['get']['responses'][200]['content']['application/json']['data'][number];
type Opening = Point['hours'][number];

const WEEKDAYS: Record<string, string> = {
  '1': 'Monday',
  '2': 'Tuesday',
  '3': 'Wednesday',
  '4': 'Thursday',
  '5': 'Friday',
  '6': 'Saturday',
  '7': 'Sunday',
};
/** A new point's hours until they are changed: Monday to Friday, 09:00-17:00. */
const WORKING_WEEK: Opening[] = [1, 2, 3, 4, 5].map((day) => ({ day, opens: '09:00', closes: '17:00' }));
/** At most this many openings a week (the service's limit). */
const MAX_OPENINGS = 28;

/** Every IANA zone the browser knows, `current` first when it is not among them (e.g. UTC). */
function zones(current: string): string[] {
  const known = Intl.supportedValuesOf('timeZone');
  return known.includes(current) ? known : [current, ...known];
}

/** The form of a new point (`point` absent) or of an existing one: name, place, zone and openings. */
function PointForm({ campus, point, done }: { campus: string; point?: Point; done: (name: string) => void }) {
  const [name, setName] = useState(point?.name ?? '');
  const [location, setLocation] = useState(point?.location ?? '');
  const [timeZone, setTimeZone] = useState(
    point?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  );
  const [hours, setHours] = useState<Opening[]>(point?.hours ?? WORKING_WEEK);
  const act = useAction(...DASHBOARD_CHANGES);
  const change = (i: number, part: Partial<Opening>) =>
    setHours((all) => all.map((o, k) => (k === i ? { ...o, ...part } : o)));
  const title = point ? `Change ${point.name}` : `Add a hand-over point at ${campus}`;
  const rowError = (i: number) =>
    act.error?.field(`hours.${i}`) ??
    act.error?.field(`hours.${i}.opens`) ??
    act.error?.field(`hours.${i}.closes`);
  return (
    <form
      aria-label={title}
      onSubmit={async (e) => {
        e.preventDefault();
        const body = { ...(point ? { pointId: point.id } : {}), campus, name, location, timeZone, hours };
        if (await act.run(() => call(api.POST('/api/dashboard/putHandoverPoint', { body })))) done(name);
      }}
    >
      <h3>{title}</h3>
      <Field
        name="name"
        label="Name"
        value={name}
        onChange={setName}
        required
        error={act.error?.field('name')}
      />
      <Field
        name="location"
        label="Where exactly (optional)"
        hint="A desk, a door, a room: what a student looks for when they get there."
        value={location}
        onChange={setLocation}
        error={act.error?.field('location')}
      />
      <Field
        name="timeZone"
        label="Time zone of the hours"
        value={timeZone}
        onChange={setTimeZone}
        options={zones(timeZone)}
        error={act.error?.field('timeZone')}
      />
      <fieldset>
        <legend>Opening hours</legend>
        {hours.map((o, i) => (
          // an opening has no id of its own: its place in the list is what the service names too
          // biome-ignore lint/suspicious/noArrayIndexKey: the rows are edited in place, never reordered
          <div className="opening" key={i}>
            <Field
              name={`day-${i}`}
              label={`Day of opening ${i + 1}`}
              value={String(o.day)}
              onChange={(v) => change(i, { day: Number(v) })}
              options={Object.keys(WEEKDAYS)}
              labels={WEEKDAYS}
            />
            <Field
              name={`opens-${i}`}
              type="time"
              label={`Opens (opening ${i + 1})`}
              value={o.opens}
              onChange={(v) => change(i, { opens: v })}
              required
            />
            <Field
              name={`closes-${i}`}
              type="time"
              label={`Closes (opening ${i + 1})`}
              value={o.closes}
              onChange={(v) => change(i, { closes: v })}
              required
              error={rowError(i)}
            />
            {hours.length > 1 && (
              <button
                type="button"
                className="link"
                onClick={() => setHours((all) => all.filter((_, k) => k !== i))}
              >
                Remove opening {i + 1}
              </button>
            )}
          </div>
        ))}
        {hours.length < MAX_OPENINGS && (
          <button
            type="button"
            onClick={() => setHours((all) => [...all, { day: 6, opens: '10:00', closes: '14:00' }])}
          >
            Add an opening
          </button>
        )}
      </fieldset>
      <ErrorNote error={act.error} />
      <button type="submit" disabled={act.busy}>
        {point ? 'Save the changes' : 'Add this point'}
      </button>
    </form>
  );
}

export function HandoverPoints() {
  const mine = useQuery({ ...profileQuery, select: (u) => u.campus });
  const [chosen, setChosen] = useState<string | null>(null);
  const campus = chosen ?? mine.data ?? '';
  const points = useQuery({ ...campusPointsQuery(campus), enabled: campus !== '' });
  const act = useAction(...DASHBOARD_CHANGES);
  // the point being changed ('' a new one), and what was done last
  const [editing, setEditing] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const campusError = points.error?.field('campus');
  const finish = (text: string) => {
    setEditing(null);
    setSaid(text);
  };
  return (
    <Section id="points-h" title={campus ? `Hand-over points at ${campus}` : 'Hand-over points'}>
      <p>Students agree each hand-over at one of their campus's points, within its opening hours.</p>
      <CampusFilter
        id="points-campus"
        label="Campus domain"
        initial={campus}
        error={campusError}
        show={(c) => {
          setChosen(c);
          setEditing(null);
          setSaid(null);
        }}
      />
      <ErrorNote error={campusError ? undefined : (points.error ?? act.error)} />
      {said && <StatusLine key={said}>{said}</StatusLine>}
      {points.data?.length === 0 && (
        <p>No hand-over point at {campus} yet: its students cannot agree a hand-over until one is added.</p>
      )}
      <ul className="books">
        {points.data?.map((p) => (
          <li key={p.id}>
            <article aria-label={p.name}>
              <h3>{p.name}</h3>
              {p.location && <p>{p.location}</p>}
              <p>Hours: {hoursText(p)}</p>
              {editing === p.id ? (
                <PointForm campus={campus} point={p} done={(name) => finish(`${name} was saved.`)} />
              ) : (
                <p className="actions">
                  <button type="button" onClick={() => setEditing(p.id)}>
                    Change {p.name}
                  </button>{' '}
                  <ActionButton
                    act={act}
                    className="danger"
                    confirm={`Remove ${p.name}? Hand-overs already planned there keep their place and time.`}
                    action={async () => {
                      await call(api.POST('/api/dashboard/removeHandoverPoint', { body: { pointId: p.id } }));
                      finish(`${p.name} was removed.`);
                    }}
                  >
                    Remove {p.name}
                  </ActionButton>
                </p>
              )}
            </article>
          </li>
        ))}
      </ul>
      {campus &&
        points.isSuccess &&
        (editing === '' ? (
          <PointForm campus={campus} done={(name) => finish(`${name} was added.`)} />
        ) : (
          <button type="button" onClick={() => setEditing('')}>
            Add a hand-over point
          </button>
        ))}
    </Section>
  );
}
