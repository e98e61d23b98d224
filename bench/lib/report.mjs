// Formatting of the results: Markdown tables, machine description, README results section.
import os from 'node:os';
import fs from 'node:fs';

const fmtInt = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const fmtUs = (x) => (Number.isFinite(x) ? (x >= 100 ? Math.round(x).toString() : x.toFixed(1)) : '—');
const fmtMs = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) : '—');
const fmtRatio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

/** rows: [{ name, seq:{callsPerSec,p50,p99}, pipe:{...}, big1, big8 }] (medians); raw row used for ratios. */
export function resultsTable(rows, depth) {
  const raw = rows.find((r) => r.name === 'raw');
  const header = [
    'server', 'seq calls/s', 'seq p50 µs', 'seq p99 µs', 'seq ratio vs raw',
    `pipe${depth} calls/s`, `pipe${depth} p50 µs`, `pipe${depth} p99 µs`, `pipe${depth} ratio vs raw`,
    '1 MiB ms', '8 MiB ms', '8 MiB ratio (ms / raw ms)',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const r of rows) {
    const cells = [
      r.name,
      fmtInt(r.seq.callsPerSec), fmtUs(r.seq.p50), fmtUs(r.seq.p99), fmtRatio(r.seq.callsPerSec / raw?.seq.callsPerSec),
      fmtInt(r.pipe.callsPerSec), fmtUs(r.pipe.p50), fmtUs(r.pipe.p99), fmtRatio(r.pipe.callsPerSec / raw?.pipe.callsPerSec),
      fmtMs(r.big1), fmtMs(r.big8), fmtRatio(r.big8 / raw?.big8),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

/**
 * Paired ratios: in each round, server ÷ raw measured minutes apart on the same machine state;
 * the median of those per-round ratios resists drift between rounds better than a ratio of medians.
 * paired: [{ name, seq, pipe, big8 }] (medians of per-round ratios).
 */
export function pairedTable(paired, depth) {
  const lines = [
    `| server | seq ratio (paired) | pipe${depth} ratio (paired) | 8 MiB ratio (paired, ms / raw ms) |`,
    '| --- | ---: | ---: | ---: |',
  ];
  for (const r of paired) lines.push(`| ${r.name} | ${fmtRatio(r.seq)} | ${fmtRatio(r.pipe)} | ${fmtRatio(r.big8)} |`);
  return lines.join('\n');
}

/** perRound: [{ seq, pipe, big1, big8 }] for one server, one entry per round. */
export function perRoundTable(perRound, depth) {
  const lines = [
    `| round | seq calls/s | seq p50 µs | pipe${depth} calls/s | pipe${depth} p50 µs | 1 MiB ms | 8 MiB ms |`,
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  perRound.forEach((r, i) => {
    lines.push(
      `| ${i + 1} | ${fmtInt(r.seq?.callsPerSec)} | ${fmtUs(r.seq?.p50)} | ${fmtInt(r.pipe?.callsPerSec)} | ${fmtUs(r.pipe?.p50)} | ${fmtMs(r.big1)} | ${fmtMs(r.big8)} |`,
    );
  });
  return lines.join('\n');
}

export function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    node: process.version,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
  };
}

export function machineLine(m = machineInfo()) {
  return `${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB RAM, Node ${m.node}, ${m.os}`;
}

export const START = '<!-- results:start -->';
export const END = '<!-- results:end -->';

/** Replace (or append) the generated section between the results markers. */
export function writeReadmeResults(file, markdown) {
  const block = `${START}\n${markdown.trim()}\n${END}`;
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const s = text.indexOf(START);
  const e = text.indexOf(END);
  const next = s !== -1 && e > s ? text.slice(0, s) + block + text.slice(e + END.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, next);
}
