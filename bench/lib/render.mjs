// Renders the generated parts of bench/README.md and the SVG charts in bench/charts/ from the saved
// results (bench/results/*.json) alone, so the same files always give the same bytes: the report
// command writes them, and its --check compares them with what is committed.
import fs from 'node:fs';
import path from 'node:path';
import { barChart } from './chart.mjs';
import { loadResults } from './results.mjs';
import { fmtInt, fmtMs, fmtRatio, machineLine, pairedTable, perRoundTable, replaceSection, resultsTable } from './report.mjs';
import { pairedRatios } from './stats.mjs';

const OURS = new Set([
  'typemcp',
  'typemcp-json',
  'typemcp-otel',
  'engine',
  'typemcp-base',
  'everything',
  'everything-base',
  'typemcp-manifest',
  'everything-manifest',
]);
const kindOf = (name) => (name === 'raw' ? 'raw' : OURS.has(name) ? 'ours' : 'other');
const when = (iso) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const day = (iso) => iso.slice(0, 10);
const RANK = { raw: 0, ours: 1, other: 2 };
/** Servers that have rounds, raw first, then ours, then the others, each group in run order. */
const measured = (doc) => doc.servers.filter((s) => s.rounds.length > 0).sort((a, b) => RANK[kindOf(a.name)] - RANK[kindOf(b.name)]);

/** Bars of each server's median ÷ raw's median, whiskers of its min and max round ÷ raw's median. */
function ratioBars(doc, get) {
  const raw = doc.servers.find((s) => s.name === 'raw');
  const base = raw ? get(raw.median) : NaN;
  if (!Number.isFinite(base)) return [];
  return measured(doc).map((s) => {
    const values = s.rounds.map(get).filter(Number.isFinite);
    return { label: s.name, kind: kindOf(s.name), value: get(s.median) / base, min: Math.min(...values) / base, max: Math.max(...values) / base };
  });
}

function ratioChart(doc, title, get) {
  return {
    title,
    subtitle: `bar: median of ${doc.rounds} rounds ÷ raw's median · whisker: min to max round · ${day(doc.date)}`,
    reference: 1,
    referenceLabel: 'raw = 1.0',
    axisLabel: "ratio to raw's median",
    format: fmtRatio,
    bars: ratioBars(doc, get),
  };
}

function msChart(doc, title, get) {
  return {
    title,
    subtitle: `bar: median of ${doc.rounds} runs · whisker: min to max run · ${day(doc.date)}`,
    axisLabel: 'milliseconds',
    format: (v) => `${fmtMs(v)} ms`,
    bars: measured(doc).map((s) => {
      const values = s.rounds.map(get).filter(Number.isFinite);
      return { label: s.name, kind: kindOf(s.name), value: get(s.median), min: Math.min(...values), max: Math.max(...values) };
    }),
  };
}

/** Calls per µs of server CPU, so that its ratio to raw's is raw's CPU per call ÷ the server's (NaN without the measure). */
const cpuEfficiency = (m) => (m.cpuUsPerCall > 0 ? 1 / m.cpuUsPerCall : NaN);

/** Every chart: its file under bench/charts/, the bench it is drawn from, and its spec. */
export const CHARTS = [
  {
    file: 'stdio-seq.svg',
    bench: 'stdio',
    spec: (d) => ratioChart(d, 'stdio, one call at a time: calls/s ÷ raw (higher is better)', (m) => m.seq?.callsPerSec),
  },
  {
    file: 'stdio-pipe64.svg',
    bench: 'stdio',
    spec: (d) => ratioChart(d, `stdio, ${d.config?.depth ?? 64} calls in flight: calls/s ÷ raw (higher is better)`, (m) => m.pipe?.callsPerSec),
  },
  { file: 'stdio-8mib.svg', bench: 'stdio', spec: (d) => ratioChart(d, 'stdio, 8 MiB requests: ms ÷ raw (lower is better)', (m) => m.big8) },
  {
    file: 'http-legacy.svg',
    bench: 'http-legacy',
    spec: (d) => ratioChart(d, 'HTTP, stateless 2025-06-18: calls/s ÷ raw (higher is better)', (m) => m.callsPerSec),
  },
  {
    file: 'http-modern.svg',
    bench: 'http-modern',
    spec: (d) => ratioChart(d, 'HTTP, revision 2026-07-28: calls/s ÷ raw (higher is better)', (m) => m.callsPerSec),
  },
  {
    file: 'http-legacy-cpu.svg',
    bench: 'http-legacy',
    spec: (d) => ratioChart(d, "HTTP, stateless 2025-06-18: raw's server CPU per call ÷ this server's (higher is better)", cpuEfficiency),
  },
  {
    file: 'http-modern-cpu.svg',
    bench: 'http-modern',
    spec: (d) => ratioChart(d, "HTTP, revision 2026-07-28: raw's server CPU per call ÷ this server's (higher is better)", cpuEfficiency),
  },
  {
    file: 'tools-list-startup.svg',
    bench: 'tools-list',
    spec: (d) => msChart(d, `tools/list with ${d.config?.tools ?? 500} tools: start-up in ms (lower is better)`, (m) => m.startupMs),
  },
  {
    file: 'cold-start.svg',
    bench: 'cold-start',
    spec: (d) => ({
      ...ratioChart(d, 'stdio cold start to the initialize answer: ms ÷ bare node (lower is better)', (m) => m.ms),
      referenceLabel: 'bare node = 1.0',
      axisLabel: "ratio to bare node's median",
    }),
  },
  {
    file: 'cold-start-cpu.svg',
    bench: 'cold-start',
    spec: (d) => ({
      ...ratioChart(d, 'stdio cold start: CPU ms until the initialize answer ÷ bare node (lower is better)', (m) => m.cpuMs),
      referenceLabel: 'bare node = 1.0',
      axisLabel: "ratio to bare node's median",
    }),
  },
  {
    file: 'tools-list-call.svg',
    bench: 'tools-list',
    spec: (d) => msChart(d, `tools/list with ${d.config?.tools ?? 500} tools: ms per call (lower is better)`, (m) => m.listMs),
  },
];

const header = (doc, extra = []) =>
  [`- Command: \`${doc.command}\``, `- Date: ${when(doc.date)}`, `- Machine: ${machineLine(doc.machine)}`, `- Rounds: ${doc.rounds}`, ...extra].join('\n');

function stdioSection(doc) {
  const c = doc.config;
  const rows = measured(doc).map((s) => ({ name: s.name, ...s.median }));
  const raw = doc.servers.find((s) => s.name === 'raw');
  const paired = pairedRatios(measured(doc));
  const failures = Object.entries(doc.failures ?? {}).map(([name, msg]) => `- **${name} FAILED**: ${msg}`);
  return [
    header(doc, [
      c.seqSlice
        ? `- Order: interleaved rounds, server order rotated each round; seq in slices of ${c.seqSlice} calls taking turns across the servers; one child per server for the whole run`
        : '- Order: interleaved rounds, server order rotated each round; one child per server for the whole run',
      `- N: warm-up ${c.warmup} seq + ${c.warmup} pipelined + 2×1 MiB; seq ${c.seqN}; pipe${c.depth} ${c.pipeN}; 1 MiB ×${c.big1N}; 8 MiB ×${c.big8N}`,
      `- Servers: ${doc.servers.map((s) => s.name).join(', ')}`,
    ]),
    '',
    'Medians over rounds:',
    '',
    resultsTable(rows, c.depth),
    ...(paired.length ? ['', 'Median of per-round ratios (each server against raw in the same round):', '', pairedTable(paired, c.depth)] : []),
    ...(raw?.rounds.length ? ['', 'Raw baseline, per round:', '', perRoundTable(raw.rounds, c.depth)] : []),
    ...(failures.length ? ['', ...failures] : []),
  ].join('\n');
}

function httpSection(doc) {
  const c = doc.config;
  const raw = doc.servers.find((s) => s.name === 'raw');
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const sse = doc.sse;
  return [
    header(doc, [`- Load: ${c.seconds} s per server per round, ${c.concurrency} concurrent ${c.era} POSTs over a keep-alive agent; medians over rounds`]),
    '',
    '| server | calls/s | p50 (ms) | p99 (ms) | ratio to raw | server CPU µs/call | CPU ratio (raw ÷ server) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...measured(doc).map(
      (s) =>
        `| ${s.name} | ${fmtInt(s.median.callsPerSec)} | ${fmtMs(s.median.p50 / 1000)} | ${fmtMs(s.median.p99 / 1000)} | ${fmtRatio(s.median.callsPerSec / raw?.median.callsPerSec)} | ` +
        `${s.median.cpuUsPerCall === undefined ? '—' : fmtMs(s.median.cpuUsPerCall)} | ${fmtRatio(raw?.median.cpuUsPerCall / s.median.cpuUsPerCall)} |`,
    ),
    ...(sse
      ? [
          '',
          `Server heap per idle legacy HTTP+SSE session (${sse.n} open \`/sse\` streams, after gc): typemcp ${kb(sse.typemcp)} KB, SDK 1.x SSEServerTransport ${kb(sse.sdk1)} KB; ` +
            `raw node:http holding the same open SSE responses (the per-connection floor): ${kb(sse.raw)} KB, express 5 holding them: ${kb(sse.express)} KB; ` +
            `so TypeMCP's own state is ${kb(sse.typemcp - sse.express)} KB per session above express.`,
        ]
      : []),
    ...(raw?.rounds.length ? ['', `Raw calls/s per round: ${raw.rounds.map((r) => fmtInt(r.callsPerSec)).join(', ')}.`] : []),
  ].join('\n');
}

function toolsListSection(doc) {
  const c = doc.config;
  return [
    header(doc, [
      c.serverPerProcess
        ? `- Each run: a fresh process per server builds it (${c.tools} tools × ${c.fields} fields), then times ${c.calls} tools/list calls (median)`
        : `- Each run: a fresh process builds both servers (${c.tools} tools × ${c.fields} fields), then times ${c.calls} tools/list calls to each (median)`,
    ]),
    '',
    '| server | tools listed | start-up ms | ms per tools/list | response bytes |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...measured(doc).map((s) => `| ${s.name} | ${s.median.tools} | ${fmtMs(s.median.startupMs)} | ${fmtMs(s.median.listMs)} | ${fmtInt(s.median.bytes)} |`),
    '',
    'Start-up ms per run:',
    '',
    ...measured(doc).map((s) => `- ${s.name}: ${s.rounds.map((r) => fmtMs(r.startupMs)).join(', ')}`),
  ].join('\n');
}

function coldStartSection(doc) {
  const raw = doc.servers.find((s) => s.name === 'raw');
  return [
    header(doc, [`- Each round: every server spawned ${doc.config.spawns} times in a row (median kept), order rotated per round; medians over rounds`]),
    '',
    '| server | ms to the initialize answer | ratio to bare node | CPU ms until the answer | CPU ratio to bare node |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...measured(doc).map(
      (s) =>
        `| ${s.name === 'raw' ? 'raw (bare node)' : s.name} | ${fmtMs(s.median.ms)} | ${fmtRatio(s.median.ms / raw?.median.ms)} | ` +
        `${s.median.cpuMs === undefined ? '—' : fmtMs(s.median.cpuMs)} | ${fmtRatio(s.median.cpuMs / raw?.median.cpuMs)} |`,
    ),
    '',
    'Ms per round:',
    '',
    ...measured(doc).map((s) => `- ${s.name}: ${s.rounds.map((r) => fmtMs(r.ms)).join(', ')}`),
  ].join('\n');
}

/** One row per build, two columns per Node major (wall, CPU), each with its ratio to bare node on that major. */
function coldStartBundleSection(doc) {
  const majors = doc.config.nodes;
  const kinds = [...new Set(doc.servers.map((s) => s.name.slice(s.name.indexOf(' ') + 1)))];
  const at = (major, kind) => doc.servers.find((s) => s.name === `node${major} ${kind}`)?.median ?? {};
  const cell = (major, kind, key) => `${fmtMs(at(major, kind)[key])} | ${fmtRatio(at(major, kind)[key] / at(major, 'raw')[key])}`;
  return [
    header(doc, [
      `- Each round: every server spawned in turn, ${doc.config.spawns} times over (median kept), order rotated per round; medians over rounds`,
      `- Bundle: ${fmtInt(doc.config.bundleBytes / 1024)} KiB; targets: bundled ≤ 1.5× bare node, unbundled+cache ≤ 2.0×`,
    ]),
    '',
    `| server | ${majors.map((m) => `Node ${m} ms | ratio | CPU ms | CPU ratio`).join(' | ')} |`,
    `| --- | ${majors.map(() => '---: | ---: | ---: | ---:').join(' | ')} |`,
    ...kinds.map((k) => `| ${k === 'raw' ? 'raw (bare node)' : k} | ${majors.map((m) => `${cell(m, k, 'ms')} | ${cell(m, k, 'cpuMs')}`).join(' | ')} |`),
    '',
    'Ms per round:',
    '',
    ...doc.servers.map((s) => `- ${s.name}: ${s.rounds.map((r) => fmtMs(r.ms)).join(', ')}`),
  ].join('\n');
}

function scaleOutSection(doc) {
  const c = doc.config;
  const memory = doc.servers.find((s) => s.name === 'memory');
  const loadTable = (load) => [
    `${load === 'stateless' ? 'Stateless, revision 2026-07-28' : 'Session-based, revision 2025-11-25'}:`,
    '',
    '| setup | calls/s | p50 (ms) | p99 (ms) | ratio to memory |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...doc.servers.map(
      (s) =>
        `| ${s.name} | ${fmtInt(s.median[load]?.callsPerSec)} | ${fmtMs(s.median[load]?.p50 / 1000)} | ${fmtMs(s.median[load]?.p99 / 1000)} | ${fmtRatio(s.median[load]?.callsPerSec / memory?.median[load]?.callsPerSec)} |`,
    ),
  ];
  const perCall = (counts) =>
    Object.entries(counts)
      .map(([command, n]) => `${command} ${n.toFixed(2)}`)
      .join(', ') || 'none';
  const areas = (usPerCall) =>
    Object.entries(usPerCall)
      .sort((a, b) => b[1] - a[1])
      .map(([area, us]) => `${area} ${fmtInt(us)}`)
      .join(', ');
  const total = (usPerCall) => Object.values(usPerCall).reduce((a, b) => a + b, 0);
  return [
    header(doc, [
      `- Load: ${c.seconds} s per setup per load per round, ${c.concurrency} concurrent POSTs over a keep-alive agent (session-based: one session per worker, opened before the clock starts); medians over rounds`,
    ]),
    '',
    ...loadTable('stateless'),
    '',
    ...loadTable('session'),
    '',
    `Redis commands per call (MONITOR over ${c.monitoredCalls} calls, only the instances' connections):`,
    '',
    ...Object.entries(doc.redisCommands).map(([k, v]) => `- ${k}: ${perCall(v)}`),
    '',
    'Instance CPU per call, µs of self time by code area (`--cpu-prof` of one instance under the same load):',
    '',
    ...Object.entries(doc.cpu).map(([k, v]) => `- ${k}: ${fmtInt(total(v))} in all; ${areas(v)}`),
  ].join('\n');
}

function chaosSection(doc) {
  const c = doc.config;
  const r = doc.servers[0].rounds[0];
  return [
    header(doc, [
      `- Load: ${c.legacyWorkers} 2025-11-25 sessions (SDK 1.x; every other call on a stream the server closes, resumed with Last-Event-ID) and ${c.modernWorkers} stateless 2026-07-28 clients (SDK 2.x), one call at a time each, through the round-robin proxy to three instances`,
      `- Chaos: an instance SIGKILLed every ${c.killEveryMs / 1000} s (back 300 ms later, one down at a time), Redis restarted every ${c.redisRestartEveryMs / 1000} s (append-only file on every write)`,
    ]),
    '',
    '| calls | answered | retryable error | in flight on a killed instance | wrong or missing answer | answered twice | resumed progress lost or repeated |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${fmtInt(r.calls)} | ${fmtInt(r.ok)} | ${fmtInt(r.retryable)} | ${fmtInt(r.lostWithInstance)} | ${fmtInt(r.bad)} | ${fmtInt(r.duplicates)} | ${fmtInt(r.eventErrors)} |`,
    '',
    `- Instances SIGKILLed: ${r.kills}; Redis restarts: ${r.redisRestarts}; instances serving afterwards: ${r.servingAfter} of 3`,
    `- Answered calls: p50 ${fmtMs(r.p50Ms)} ms, p99 ${fmtMs(r.p99Ms)} ms`,
    `- Peaks (sampled every second): instance RSS ${fmtMs(r.instanceRssMb)} MB, Redis ${fmtMs(r.redisUsedMb)} MB used, ${fmtInt(r.redisKeys)} keys`,
    `- Errors by kind: ${
      Object.entries(r.reasons ?? {})
        .map(([k, n]) => `${k} ${n}`)
        .join('; ') || 'none'
    }`,
  ].join('\n');
}

const SECTIONS = {
  stdio: ['results', stdioSection],
  'http-legacy': ['http-results', httpSection],
  'http-modern': ['http-modern-results', httpSection],
  'tools-list': ['tools-list-results', toolsListSection],
  'cold-start': ['cold-start-results', coldStartSection],
  'cold-start-bundle': ['cold-start-bundle-results', coldStartBundleSection],
  'scale-out': ['scale-out-results', scaleOutSection],
  chaos: ['chaos-results', chaosSection],
};

/**
 * Renders README text and charts from the results under `benchDir` (bench/ by default).
 * A bench with no saved results keeps its README section as it is and gets no chart.
 * @returns {{ files: Array<{ path: string, text: string }> }} README.md first, then one SVG per chart
 */
export function renderReport(benchDir) {
  const results = loadResults(benchDir);
  const charts = CHARTS.filter((c) => results[c.bench])
    .map((c) => ({ ...c, spec: c.spec(results[c.bench]) }))
    .filter((c) => c.spec.bars.length > 0);
  let readme = fs.readFileSync(path.join(benchDir, 'README.md'), 'utf8');
  readme = replaceSection(readme, 'charts', charts.map((c) => `![${c.spec.title}](charts/${c.file})`).join('\n\n'));
  for (const [bench, [tag, render]] of Object.entries(SECTIONS)) if (results[bench]) readme = replaceSection(readme, tag, render(results[bench]));
  return {
    files: [
      { path: path.join(benchDir, 'README.md'), text: readme },
      ...charts.map((c) => ({ path: path.join(benchDir, 'charts', c.file), text: barChart(c.spec) })),
    ],
  };
}

/** Writes what renderReport renders; returns the paths written. */
export function writeReport(benchDir) {
  const { files } = renderReport(benchDir);
  for (const f of files) {
    fs.mkdirSync(path.dirname(f.path), { recursive: true });
    fs.writeFileSync(f.path, f.text);
  }
  return files.map((f) => f.path);
}

/** The paths whose content on disk differs from what renderReport renders (missing counts as different). */
export function staleFiles(benchDir) {
  return renderReport(benchDir)
    .files.filter((f) => !fs.existsSync(f.path) || fs.readFileSync(f.path, 'utf8') !== f.text)
    .map((f) => f.path);
}
