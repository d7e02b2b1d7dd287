/**
 * One chart of the run: p50 latency (left) and capacity units per request (right) of each case
 * against the table size, drawn as SVG and rendered to PNG with resvg (prebuilt, no native build).
 */
import { writeFileSync } from 'node:fs';
import type { BenchResults } from './report.ts';

const COLOURS = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#7f7f7f',
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Series {
  name: string;
  colour: string;
  points: Array<{ x: number; y: number }>;
}

function niceMax(v: number): number {
  if (!(v > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function panel(
  x0: number,
  y0: number,
  w: number,
  h: number,
  title: string,
  yLabel: string,
  sizes: number[],
  series: Series[],
): string {
  const out: string[] = [];
  const left = 60;
  const bottom = 40;
  const pw = w - left - 20;
  const ph = h - bottom - 40;
  const px = x0 + left;
  const py = y0 + 40;
  const yMax = niceMax(Math.max(...series.flatMap((s) => s.points.map((p) => p.y)), 0));
  const logs = sizes.map((s) => Math.log10(s));
  const lo = Math.min(...logs);
  const hi = Math.max(...logs);
  const xOf = (size: number) => px + (hi === lo ? pw / 2 : ((Math.log10(size) - lo) / (hi - lo)) * pw);
  const yOf = (y: number) => py + ph - (y / yMax) * ph;
  out.push(
    `<text x="${x0 + w / 2}" y="${y0 + 22}" font-size="16" font-weight="bold" text-anchor="middle">${esc(title)}</text>`,
  );
  for (let k = 0; k <= 5; k++) {
    const v = (yMax * k) / 5;
    const y = yOf(v);
    out.push(`<line x1="${px}" y1="${y}" x2="${px + pw}" y2="${y}" stroke="#e0e0e0"/>`);
    out.push(
      `<text x="${px - 6}" y="${y + 4}" font-size="11" text-anchor="end">${Number(v.toPrecision(3))}</text>`,
    );
  }
  for (const s of sizes) {
    const x = xOf(s);
    out.push(`<line x1="${x}" y1="${py}" x2="${x}" y2="${py + ph}" stroke="#f0f0f0"/>`);
    out.push(
      `<text x="${x}" y="${py + ph + 16}" font-size="11" text-anchor="middle">${s.toLocaleString('en-US')}</text>`,
    );
  }
  out.push(`<rect x="${px}" y="${py}" width="${pw}" height="${ph}" fill="none" stroke="#444"/>`);
  out.push(
    `<text x="${px + pw / 2}" y="${py + ph + 34}" font-size="12" text-anchor="middle">listed books in the table (log scale)</text>`,
  );
  out.push(
    `<text x="${x0 + 16}" y="${py + ph / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 ${x0 + 16} ${py + ph / 2})">${esc(yLabel)}</text>`,
  );
  for (const s of series) {
    const pts = s.points.map((p) => `${xOf(p.x).toFixed(1)},${yOf(p.y).toFixed(1)}`).join(' ');
    out.push(`<polyline points="${pts}" fill="none" stroke="${s.colour}" stroke-width="2.5"/>`);
    for (const p of s.points) {
      out.push(`<circle cx="${xOf(p.x).toFixed(1)}" cy="${yOf(p.y).toFixed(1)}" r="4" fill="${s.colour}"/>`);
    }
  }
  return out.join('\n');
}

export function chartSvg(r: BenchResults): string {
  const width = 1200;
  const height = 560;
  const series = r.cases.map((c, i) => ({
    name: c.name,
    colour: COLOURS[i % COLOURS.length] as string,
    latency: c.bySize.map((s) => ({ x: s.size, y: s.latency.endpoint.p50 })),
    capacity: c.bySize.map((s) => ({ x: s.size, y: s.cost.capacityUnits })),
  }));
  const sizes = r.settings.sizes;
  const legendY = height - 60;
  const legend = series
    .map((s, i) => {
      const x = 70 + (i % 5) * 220;
      const y = legendY + Math.floor(i / 5) * 22;
      return `<line x1="${x}" y1="${y}" x2="${x + 24}" y2="${y}" stroke="${s.colour}" stroke-width="3"/><text x="${x + 30}" y="${y + 4}" font-size="12">${esc(s.name)}</text>`;
    })
    .join('\n');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    panel(
      0,
      0,
      width / 2,
      height - 70,
      'In-process p50 latency',
      'ms',
      sizes,
      series.map((s) => ({ name: s.name, colour: s.colour, points: s.latency })),
    ),
    panel(
      width / 2,
      0,
      width / 2,
      height - 70,
      'DynamoDB capacity units per request',
      'capacity units',
      sizes,
      series.map((s) => ({ name: s.name, colour: s.colour, points: s.capacity })),
    ),
    legend,
    `<text x="${width - 10}" y="${height - 8}" font-size="10" text-anchor="end" fill="#666">${esc(`campus-books benchmark, ${r.mode} run, ${r.date}`)}</text>`,
    '</svg>',
  ].join('\n');
}

/** Writes the chart as PNG (and the SVG beside it when `svgPath` is given). */
export async function writeChart(r: BenchResults, pngPath: string): Promise<void> {
  const { Resvg } = await import('@resvg/resvg-js');
  const svg = chartSvg(r);
  const png = new Resvg(svg, {
    background: 'white',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  })
    .render()
    .asPng();
  writeFileSync(pngPath, png);
}
