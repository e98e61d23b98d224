// Small statistics helpers: percentiles over latency samples and medians over rounds.
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

/** Latency summary in µs from a Float64Array of per-call µs samples. */
export function summarize(samplesUs, elapsedNs) {
  const sorted = Float64Array.from(samplesUs).sort();
  return {
    callsPerSec: samplesUs.length / (Number(elapsedNs) / 1e9),
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
  };
}

export function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
}

/**
 * Per-server medians of the per-round ratios to raw (same round), for the stdio scenarios: the
 * paired view, which cancels the machine's drift between rounds. Servers whose round count
 * differs from raw's (a failed round) are left out.
 */
export function pairedRatios(servers) {
  const raw = servers.find((s) => s.name === 'raw');
  if (!raw?.rounds.length) return [];
  return servers
    .filter((s) => s !== raw && s.rounds.length === raw.rounds.length)
    .map((s) => ({
      name: s.name,
      seq: median(s.rounds.map((r, i) => r.seq.callsPerSec / raw.rounds[i].seq.callsPerSec)),
      pipe: median(s.rounds.map((r, i) => r.pipe.callsPerSec / raw.rounds[i].pipe.callsPerSec)),
      big8: median(s.rounds.map((r, i) => r.big8 / raw.rounds[i].big8)),
    }));
}
