// Formatting of the results: Markdown tables, number formats, machine description, and the
// replacement of a generated section of a README between its markers.
import os from 'node:os';

/** 12345.6 → "12,346" (the same on every ICU build, so the README renders byte for byte). */
export const fmtInt = (x) => (Number.isFinite(x) ? String(Math.round(x)).replace(/\B(?=(\d{3})+$)/g, ',') : '—');
export const fmtUs = (x) => (Number.isFinite(x) ? (x >= 100 ? Math.round(x).toString() : x.toFixed(1)) : '—');
export const fmtMs = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) : '—');
export const fmtRatio = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : '—');

/** rows: [{ name, seq:{callsPerSec,p50,p99}, pipe:{...}, big1, big8 }] (medians); raw row used for ratios. */
export function resultsTable(rows, depth) {
  const raw = rows.find((r) => r.name === 'raw');
  const header = [
    'server',
    'seq calls/s',
    'seq p50 µs',
    'seq p99 µs',
    'seq ratio vs raw',
    `pipe${depth} calls/s`,
    `pipe${depth} p50 µs`,
    `pipe${depth} p99 µs`,
    `pipe${depth} ratio vs raw`,
    '1 MiB ms',
    '8 MiB ms',
    '8 MiB ratio (ms / raw ms)',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`];
  for (const r of rows) {
    const cells = [
      r.name,
      fmtInt(r.seq.callsPerSec),
      fmtUs(r.seq.p50),
      fmtUs(r.seq.p99),
      fmtRatio(r.seq.callsPerSec / raw?.seq.callsPerSec),
      fmtInt(r.pipe.callsPerSec),
      fmtUs(r.pipe.p50),
      fmtUs(r.pipe.p99),
      fmtRatio(r.pipe.callsPerSec / raw?.pipe.callsPerSec),
      fmtMs(r.big1),
      fmtMs(r.big8),
      fmtRatio(r.big8 / raw?.big8),
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
  const lines = [`| server | seq ratio (paired) | pipe${depth} ratio (paired) | 8 MiB ratio (paired, ms / raw ms) |`, '| --- | ---: | ---: | ---: |'];
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

/**
 * Replaces the generated section `<!-- tag:start -->…<!-- tag:end -->` of `text` with `markdown`.
 * @throws if the markers are missing, so a section is never silently lost
 */
export function replaceSection(text, tag, markdown) {
  const start = `<!-- ${tag}:start -->`;
  const end = `<!-- ${tag}:end -->`;
  const s = text.indexOf(start);
  const e = text.indexOf(end);
  if (s === -1 || e < s) throw new Error(`README has no ${start} … ${end} section`);
  return `${text.slice(0, s)}${start}\n${markdown.trim()}\n${end}${text.slice(e + end.length)}`;
}
