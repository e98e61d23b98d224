// SVG bar charts for the benchmark README: one horizontal bar per server at its median, a whisker
// from the slowest to the fastest round, the value written beside it, and an optional dashed
// reference line (raw = 1.0×). Plain text out, no dependency; a white card so it reads the same on
// GitHub's light and dark themes. Deterministic: the same input gives the same bytes.

const WIDTH = 640;
const PLOT_X0 = 112;
const PLOT_X1 = 548;
const PLOT_TOP = 72;
const ROW = 30;
const BAR = 16;
const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Helvetica, Arial, sans-serif";
const TEXT = '#1f2328';
const MUTED = '#59636e';
const GRID = '#d8dee4';
/** Fill per kind of server: the raw floor, ours, the others (the official SDKs). */
export const KIND_COLORS = { raw: '#8c959f', ours: '#0969da', other: '#e16f24' };

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const px = (n) => String(Math.round(n * 10) / 10);

/** A step of 1, 2, 2.5 or 5 × 10^k that cuts [0, max] into at most 6 intervals. */
function tickStep(max) {
  const raw = max / 6;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

/** Decimals needed to write multiples of `step` exactly (0.25 → 2, 2.5 → 1, 50 → 0). */
const decimalsOf = (step) => {
  for (let d = 0; d < 3; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9) return d;
  return 3;
};

/**
 * Renders one bar chart as an SVG document.
 * @param {object} spec
 * @param {string} spec.title first line, bold (say what is measured and which way is better)
 * @param {string} [spec.subtitle] second line, muted (how the bars and whiskers are made)
 * @param {Array<{label: string, value: number, min: number, max: number, kind?: 'raw'|'ours'|'other'}>} spec.bars
 *   one per server, drawn top to bottom in this order; `value` sets the bar, `min`/`max` the whisker
 * @param {number} [spec.reference] where to draw the dashed reference line (e.g. 1 for ratios to raw)
 * @param {string} [spec.referenceLabel] text beside that line
 * @param {(v: number) => string} spec.format how a value is written (label, axis is plain numbers)
 * @param {string} [spec.axisLabel] under the axis, e.g. "ratio to raw" or "ms"
 * @returns {string} the SVG text, ending with a newline
 */
export function barChart(spec) {
  const bars = spec.bars.filter((b) => Number.isFinite(b.value));
  const ends = bars.flatMap((b) => [b.value, b.min, b.max]).filter(Number.isFinite);
  if (spec.reference !== undefined) ends.push(spec.reference);
  const top = Math.max(...ends, 0) * 1.04 || 1;
  const step = tickStep(top);
  const domainMax = Math.ceil(top / step - 1e-9) * step;
  const x = (v) => PLOT_X0 + (v / domainMax) * (PLOT_X1 - PLOT_X0);
  const plotBottom = PLOT_TOP + bars.length * ROW;
  const height = plotBottom + 46;

  const desc = bars
    .map((b) => `${b.label}: ${spec.format(b.value)}` + (Number.isFinite(b.min) ? ` (rounds ${spec.format(b.min)} to ${spec.format(b.max)})` : ''))
    .join('; ');
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-labelledby="title desc" font-family="${esc(FONT)}">`,
    `<title id="title">${esc(spec.title)}</title>`,
    `<desc id="desc">${esc(desc)}.</desc>`,
    `<rect class="background" x="0.5" y="0.5" width="${WIDTH - 1}" height="${height - 1}" rx="6" fill="#ffffff" stroke="${GRID}"/>`,
    `<text x="16" y="28" font-size="16" font-weight="600" fill="${TEXT}">${esc(spec.title)}</text>`,
  ];
  if (spec.subtitle) out.push(`<text x="16" y="48" font-size="12" fill="${MUTED}">${esc(spec.subtitle)}</text>`);

  for (let v = 0; v <= domainMax + step / 1e6; v += step) {
    out.push(
      `<line class="grid" x1="${px(x(v))}" y1="${PLOT_TOP - 4}" x2="${px(x(v))}" y2="${plotBottom}" stroke="${GRID}"/>`,
      `<text x="${px(x(v))}" y="${plotBottom + 16}" font-size="11" fill="${MUTED}" text-anchor="middle">${v.toFixed(decimalsOf(step))}</text>`,
    );
  }
  if (spec.axisLabel) {
    out.push(
      `<text x="${px((PLOT_X0 + PLOT_X1) / 2)}" y="${plotBottom + 34}" font-size="11" fill="${MUTED}" text-anchor="middle">${esc(spec.axisLabel)}</text>`,
    );
  }

  bars.forEach((b, i) => {
    const yMid = PLOT_TOP + i * ROW + ROW / 2;
    const fill = KIND_COLORS[b.kind ?? 'other'];
    out.push(
      `<text x="${PLOT_X0 - 8}" y="${px(yMid + 4)}" font-size="13" fill="${TEXT}" text-anchor="end">${esc(b.label)}</text>`,
      `<rect class="bar" data-label="${esc(b.label)}" x="${PLOT_X0}" y="${px(yMid - BAR / 2)}" width="${px(x(b.value) - PLOT_X0)}" height="${BAR}" fill="${fill}"/>`,
    );
    let labelX = x(b.value);
    if (Number.isFinite(b.min) && Number.isFinite(b.max)) {
      const [x1, x2] = [px(x(b.min)), px(x(b.max))];
      out.push(
        `<g class="whisker" data-label="${esc(b.label)}" stroke="${TEXT}" stroke-width="1.5">` +
          `<line x1="${x1}" y1="${px(yMid)}" x2="${x2}" y2="${px(yMid)}"/>` +
          `<line x1="${x1}" y1="${px(yMid - 5)}" x2="${x1}" y2="${px(yMid + 5)}"/>` +
          `<line x1="${x2}" y1="${px(yMid - 5)}" x2="${x2}" y2="${px(yMid + 5)}"/></g>`,
      );
      labelX = Math.max(labelX, x(b.max));
    }
    out.push(`<text x="${px(labelX + 6)}" y="${px(yMid + 4)}" font-size="12" fill="${TEXT}">${esc(spec.format(b.value))}</text>`);
  });

  if (spec.reference !== undefined) {
    const rx = px(x(spec.reference));
    out.push(
      `<line class="reference" x1="${rx}" y1="${PLOT_TOP - 10}" x2="${rx}" y2="${plotBottom}" stroke="#cf222e" stroke-width="1.5" stroke-dasharray="4 3"/>`,
    );
    if (spec.referenceLabel)
      out.push(`<text x="${px(x(spec.reference) + 4)}" y="${PLOT_TOP - 2}" font-size="11" fill="#cf222e">${esc(spec.referenceLabel)}</text>`);
  }
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
