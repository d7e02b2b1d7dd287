/**
 * The dashboard's Statistics tab: the service's totals, and the last 12 weeks of a campus (or of
 * every campus) drawn as bar charts: orders, gross sales and fees, new listings. Inline SVG, no
 * chart library; each chart is a figure with a caption, its bars hidden from screen readers and its
 * values in a visually hidden table instead.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { paths } from '#web/api.gen.ts';
import { money } from '#web/api.ts';
import { CampusFilter } from '#web/features/dashboard/campus-filter.tsx';
import { statisticsQuery } from '#web/features/dashboard/queries.ts';
import { STATUS_LABELS } from '#web/ui/books.tsx';
import { Section } from '#web/ui/layout.tsx';

type Week =
  paths['/api/dashboard/getStatistics']['get']['responses'][200]['content']['application/json']['data']['weekly'][number];

interface Series {
  name: string;
  /** the bar's class (its colour, styles.css) */
  className: string;
  value: (w: Week) => number;
}

const W = 400;
const H = 200;
const TOP = 24;
const BOTTOM = 28;
const LEFT = 8;

/** "Nov 23": a week by its Monday (UTC). */
const weekLabel = (week: string) =>
  new Date(`${week}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** One chart: what it shows and how its values read. */
interface Chart {
  id: string;
  caption: string;
  series: Series[];
  format: (n: number) => string;
}

/** A bar chart of one or more series by week, with its values as a visually hidden table. */
function WeekChart({ id, caption, weeks, series, format }: Chart & { weeks: Week[] }) {
  const max = Math.max(0, ...weeks.flatMap((w) => series.map((s) => s.value(w))));
  const slot = (W - LEFT) / Math.max(1, weeks.length);
  const barWidth = (slot * 0.8) / series.length;
  const height = (v: number) => (max > 0 ? (Math.max(0, v) / max) * (H - TOP - BOTTOM) : 0);
  return (
    <figure className="chart" aria-labelledby={`${id}-c`}>
      <figcaption id={`${id}-c`}>{caption}</figcaption>
      {series.length > 1 && (
        <ul className="chart-key" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <span className={`swatch ${s.className}`} /> {s.name}
            </li>
          ))}
        </ul>
      )}
      <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" focusable="false" data-chart={id}>
        <text x={LEFT} y={14} className="chart-text">
          {`Highest: ${format(max)}`}
        </text>
        <line x1={LEFT} x2={W} y1={H - BOTTOM} y2={H - BOTTOM} className="chart-axis" />
        {weeks.map((w, i) => (
          <g key={w.week}>
            {series.map((s, j) => {
              const v = s.value(w);
              const h = height(v);
              return (
                <rect
                  key={s.name}
                  className={s.className}
                  data-week={w.week}
                  data-series={s.name}
                  data-value={v}
                  x={LEFT + i * slot + slot * 0.1 + j * barWidth}
                  y={H - BOTTOM - h}
                  width={barWidth}
                  height={h}
                >
                  <title>{`${s.name}, week of ${weekLabel(w.week)}: ${format(v)}`}</title>
                </rect>
              );
            })}
            {/* every third week, ending with the current one */}
            {i % 3 === (weeks.length - 1) % 3 && (
              <text
                x={i === weeks.length - 1 ? W : LEFT + i * slot + slot / 2}
                y={H - 8}
                textAnchor={i === weeks.length - 1 ? 'end' : 'middle'}
                className="chart-text"
              >
                {weekLabel(w.week)}
              </text>
            )}
          </g>
        ))}
      </svg>
      <table className="visually-hidden" data-values={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Week of</th>
            {series.map((s) => (
              <th key={s.name} scope="col">
                {s.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((w) => (
            <tr key={w.week}>
              <th scope="row">{w.week}</th>
              {series.map((s) => (
                <td key={s.name}>{format(s.value(w))}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

const count = (n: number) => String(n);

/** The charts of the last 12 weeks, in the order shown. */
const CHARTS: Chart[] = [
  {
    id: 'orders',
    caption: 'Orders placed by week',
    series: [{ name: 'Orders', className: 'bar-a', value: (w) => w.orders }],
    format: count,
  },
  {
    id: 'money',
    caption: 'Gross sales and fees by week',
    series: [
      { name: 'Gross sales', className: 'bar-a', value: (w) => w.grossSales },
      { name: 'Fees', className: 'bar-b', value: (w) => w.feesEarned },
    ],
    format: money,
  },
  {
    id: 'listings',
    caption: 'New listings by week',
    series: [{ name: 'New listings', className: 'bar-a', value: (w) => w.newListings }],
    format: count,
  },
];

/** The campus filter and the three charts of its last 12 weeks. */
function Weekly() {
  const [campus, setCampus] = useState('');
  const stats = useQuery(statisticsQuery(campus));
  const weeks = stats.data?.weekly;
  // the answer's campus once it came, else the one asked for
  const scope = stats.data?.campus ?? (campus || 'all');
  return (
    <Section
      id="weekly-h"
      title={`The last 12 weeks${scope !== 'all' ? ` at ${scope}` : ', every campus'}`}
      loaded={stats}
    >
      <CampusFilter
        id="stats-campus"
        label="Campus domain (empty for every campus)"
        initial=""
        error={stats.error?.field('campus')}
        show={setCampus}
      />
      {weeks && CHARTS.map((chart) => <WeekChart key={chart.id} {...chart} weeks={weeks} />)}
    </Section>
  );
}

export function Statistics() {
  const stats = useQuery(statisticsQuery(''));
  const s = stats.data;
  return (
    <>
      {/* the totals are every campus's since the start: the campus filter below narrows the weeks only */}
      <Section id="stats-h" title="Totals since the start, every campus" loaded={stats}>
        {s && (
          <dl className="details">
            <dt>Users</dt>
            <dd>{s.totalUsers}</dd>
            <dt>Books</dt>
            <dd>{s.totalBooks}</dd>
            {([0, 1, 2, 3, 5] as const).map((k) => (
              <div key={k}>
                <dt>{STATUS_LABELS[k]}</dt>
                <dd>{s.booksByStatus[k]}</dd>
              </div>
            ))}
            <dt>Orders</dt>
            <dd>{s.totalOrders}</dd>
            <dt>Gross sales</dt>
            <dd>{money(s.grossSales)}</dd>
            <dt>Fees earned</dt>
            <dd>{money(s.feesEarned)}</dd>
          </dl>
        )}
      </Section>
      <Weekly />
    </>
  );
}
