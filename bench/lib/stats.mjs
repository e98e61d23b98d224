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
