/**
 * The benchmark report: a chart's bars, whiskers and reference line sit where its data puts them,
 * and `node bench/report.mjs --check` accepts the committed README and charts but rejects a page,
 * a chart or a result that drifted apart from the others.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(__dirname, '..');
const BENCH = path.join(ROOT, 'bench');
const REPORT = path.join(BENCH, 'report.mjs');

interface Bar {
  label: string;
  value: number;
  min: number;
  max: number;
  kind?: string;
}

/** bench/lib/chart.mjs is an ES module: render in a real node process, as the report does. */
function renderChart(spec: { title: string; bars: Bar[]; reference?: number }): string {
  const chart = pathToFileURL(path.join(BENCH, 'lib', 'chart.mjs')).href;
  const script = `import { barChart } from ${JSON.stringify(chart)};
process.stdout.write(barChart({ ...JSON.parse(process.argv[1]), format: (v) => v.toFixed(2) + 'x' }));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(spec)], { encoding: 'utf8' });
}

function geometry(svg: string) {
  const bars = [...svg.matchAll(/<rect class="bar" data-label="([^"]+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"/g)].map((m) => ({
    label: m[1],
    x: Number(m[2]),
    y: Number(m[3]),
    width: Number(m[4]),
  }));
  const whiskers = new Map(
    [...svg.matchAll(/<g class="whisker" data-label="([^"]+)"[^>]*><line x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"/g)].map((m) => [
      m[1],
      { from: Number(m[2]), to: Number(m[3]) },
    ]),
  );
  const reference = svg.match(/<line class="reference" x1="([\d.]+)"/);
  return { bars, whiskers, reference: reference ? Number(reference[1]) : undefined };
}

describe('bench chart', () => {
  const bars: Bar[] = [
    { label: 'raw', value: 1, min: 0.9, max: 1.1, kind: 'raw' },
    { label: 'typemcp', value: 0.8, min: 0.7, max: 0.95, kind: 'ours' },
    { label: 'sdk1', value: 0.3, min: 0.25, max: 0.4 },
    { label: 'sdk2', value: 1.7, min: 1.2, max: 2.3 },
  ];
  const svg = renderChart({ title: 'calls/s ÷ raw (higher is better)', bars, reference: 1 });
  const g = geometry(svg);

  it('draws one bar per server, top to bottom in order, each as long as its value on one linear scale from 0', () => {
    expect(g.bars.map((b) => b.label)).toEqual(['raw', 'typemcp', 'sdk1', 'sdk2']);
    for (let i = 1; i < g.bars.length; i++) expect(g.bars[i].y).toBeGreaterThan(g.bars[i - 1].y);
    const x0 = g.bars[0].x;
    expect(g.bars.every((b) => b.x === x0)).toBe(true);
    const pxPerUnit = (g.bars[3].width - g.bars[2].width) / (1.7 - 0.3);
    expect(pxPerUnit).toBeGreaterThan(100);
    g.bars.forEach((b, i) => expect(b.width).toBeCloseTo(bars[i].value * pxPerUnit, 0));
    const byWidth = [...g.bars].sort((a, b) => b.width - a.width).map((b) => b.label);
    expect(byWidth).toEqual(['sdk2', 'raw', 'typemcp', 'sdk1']);
  });

  it("puts each whisker from its min to its max and the reference line at 1.0, on the bars' scale", () => {
    const x0 = g.bars[0].x;
    const pxPerUnit = g.bars[0].width / 1;
    for (const b of bars) {
      const w = g.whiskers.get(b.label)!;
      expect(w.from).toBeCloseTo(x0 + b.min * pxPerUnit, 0);
      expect(w.to).toBeCloseTo(x0 + b.max * pxPerUnit, 0);
    }
    expect(g.reference).toBeCloseTo(x0 + pxPerUnit, 0);
    expect(renderChart({ title: 'ms', bars })).not.toContain('class="reference"');
  });

  it('writes every value beside its bar and describes the chart for screen readers', () => {
    for (const b of bars) expect(svg).toContain(`>${b.value.toFixed(2)}x</text>`);
    expect(svg).toContain('<title id="title">calls/s ÷ raw (higher is better)</title>');
    const desc = svg.match(/<desc id="desc">([^<]*)<\/desc>/)![1];
    expect(desc).toContain('sdk1: 0.30x (rounds 0.25x to 0.40x)');
    expect(svg).toMatch(/<rect class="background"[^>]* fill="#ffffff"/);
  });

  it('escapes a label so it cannot break the SVG', () => {
    const odd = renderChart({ title: 'a < b & "c"', bars: [{ label: '<x>', value: 1, min: 1, max: 1 }] });
    expect(odd).toContain('<title id="title">a &lt; b &amp; &quot;c&quot;</title>');
    expect(odd).not.toContain('<x>');
  });
});

describe('node bench/report.mjs --check', () => {
  let dir: string;
  const check = (args: string[] = ['--dir', dir]) => spawnSync(process.execPath, [REPORT, '--check', ...args], { cwd: ROOT, encoding: 'utf8' });

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
    for (const part of ['README.md', 'results', 'charts']) cpSync(path.join(BENCH, part), path.join(dir, part), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('passes on the committed README and charts, which the committed results render', () => {
    const run = check([]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const readme = readFileSync(path.join(BENCH, 'README.md'), 'utf8');
    for (const chart of ['stdio-seq', 'stdio-pipe64', 'stdio-8mib', 'http-legacy', 'http-modern', 'tools-list-startup']) {
      expect(readme).toContain(`(charts/${chart}.svg)`);
    }
  });

  it('fails when a generated number in the README was edited, and not when prose outside the sections was', () => {
    const file = path.join(dir, 'README.md');
    const readme = readFileSync(file, 'utf8');
    writeFileSync(file, readme.replace('# Benchmarks', '# Benchmarks, edited by hand'));
    expect(check().status).toBe(0);
    const rawRow = /^\| raw \| ([\d,]+) \|/m;
    expect(readme).toMatch(rawRow);
    writeFileSync(file, readme.replace(rawRow, '| raw | 1 |'));
    const run = check();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('README.md');
  });

  it('fails when a result changed and the page and charts were not re-rendered, until the report is run', () => {
    const file = path.join(dir, 'results', 'stdio.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { servers: { name: string; median: { seq: { callsPerSec: number } } }[] };
    const raw = doc.servers.find((s) => s.name === 'raw')!;
    raw.median.seq.callsPerSec *= 2;
    writeFileSync(file, JSON.stringify(doc));
    const run = check();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('README.md');
    expect(run.stderr).toContain('stdio-seq.svg');
    expect(run.stderr).not.toContain('http-legacy.svg');

    execFileSync(process.execPath, [REPORT, '--dir', dir]);
    expect(check().status).toBe(0);
    const before = geometry(readFileSync(path.join(BENCH, 'charts', 'stdio-seq.svg'), 'utf8'));
    const after = geometry(readFileSync(path.join(dir, 'charts', 'stdio-seq.svg'), 'utf8'));
    const share = (g: ReturnType<typeof geometry>, label: string) => g.bars.find((b) => b.label === label)!.width / (g.reference! - g.bars[0].x);
    expect(share(after, 'raw')).toBeCloseTo(1, 2);
    expect(share(after, 'typemcp') / share(before, 'typemcp')).toBeCloseTo(0.5, 2);
  });

  it('fails when a chart is missing', () => {
    unlinkSync(path.join(dir, 'charts', 'http-modern.svg'));
    const run = check();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('http-modern.svg');
  });
});
