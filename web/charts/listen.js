// Hearing a chart: its values played as tones by the "Listen" button.
//
// Hearing a chart: the "Listen" button under every chart (charts/frame.js)
// plays its values as tones, one per bar or point in the chart's order,
// each series in turn, with the Web Audio API. Pitch rises with the value:
// two octaves, 220 to 880 Hz, from the bottom of the chart's value range to
// its top, on a logarithmic scale of frequency (so equal steps in value
// sound like equal steps in pitch). When the tones end, the exact values
// they stood for are read out through a status region. A chart says what
// to play with sound() → {series: [{name, points: [{label, value, say}],
// range}], range: [lo, hi]}, a series' own range taking the place of the
// chart's for a series on another axis (charts/bars.js, line.js, band.js,
// widgets/audit.js).

export const LOW = 220;
export const HIGH = 880;
const MAX_POINTS = 64; // a longer series is sampled evenly
const GAP = 0.04; // seconds of silence between tones
const PAUSE = 0.5; // seconds between series

/** pitch(v, lo, hi) is the tone for value v on the range [lo, hi]: LOW·(HIGH/LOW)^((v − lo)/(hi − lo)), clamped. */
export function pitch(v, lo, hi) {
  const t = hi > lo ? Math.min(Math.max((v - lo) / (hi - lo), 0), 1) : 0.5;
  return LOW * (HIGH / LOW) ** t;
}

/** sample(points) is at most MAX_POINTS of points, evenly spaced, the first and last kept. */
export function sample(points) {
  if (points.length <= MAX_POINTS) return points;
  const out = [];
  for (let i = 0; i < MAX_POINTS; i++) out.push(points[Math.round((i * (points.length - 1)) / (MAX_POINTS - 1))]);
  return out;
}

/** range(series) is [lo, hi]: the values' span, widened to include 0. */
export function range(series) {
  let lo = 0, hi = 0;
  for (const s of series) for (const p of s.points) if (Number.isFinite(p.value)) { lo = Math.min(lo, p.value); hi = Math.max(hi, p.value); }
  return [lo, hi];
}

let audio = null; // one AudioContext for the page, made on the first press
let playing = null; // {button, nodes, timer} of the chart being played
let status = null;

function say(text) {
  if (!status) {
    status = document.createElement('p');
    status.className = 'visually-hidden';
    status.id = 'listen-status';
    status.setAttribute('role', 'status');
    document.body.append(status);
  }
  status.textContent = text;
}

function stop() {
  if (!playing) return;
  clearTimeout(playing.timer);
  for (const n of playing.nodes) { try { n.stop(); } catch { /* already stopped */ } }
  playing.button.setAttribute('aria-pressed', 'false');
  playing = null;
}

/**
 * listen(chart, button) plays chart's values (chart.sound()) and then reads
 * them out; pressed again while it plays (button is aria-pressed), it stops.
 */
export async function listen(chart, button) {
  const again = playing?.button === button;
  stop();
  if (again || !chart.data) return;
  const { series, range: given } = chart.sound();
  const parts = series.map((s) => ({ name: s.name, points: sample(s.points.filter((p) => !Number.isNaN(p.value))), range: s.range })).filter((s) => s.points.length);
  if (!parts.length) return;
  const whole = given || range(parts.filter((s) => !s.range));
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) { say(spoken(parts)); return; }
  audio ||= new AC();
  if (audio.state === 'suspended') await audio.resume();
  const nodes = [];
  let t = audio.currentTime + 0.05;
  for (const s of parts) {
    const [lo, hi] = s.range || whole;
    // Shorter tones for a long series: about 6 s a series, 80–250 ms a tone.
    const len = Math.min(0.25, Math.max(0.08, 6 / s.points.length - GAP));
    for (const p of s.points) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(pitch(p.value, lo, hi), t);
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(0.2, t + 0.01);
      gain.gain.setValueAtTime(0.2, t + len - 0.03);
      gain.gain.linearRampToValueAtTime(0, t + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(t);
      osc.stop(t + len);
      nodes.push(osc);
      t += len + GAP;
    }
    t += PAUSE;
  }
  button.setAttribute('aria-pressed', 'true');
  const me = playing = { button, nodes, timer: 0 };
  me.timer = setTimeout(() => {
    if (playing !== me) return;
    stop();
    say(spoken(parts));
  }, 1000 * (t - audio.currentTime));
}

/** spoken(parts) is the values played, in words: "Exact probability: Monday 20.1%, Tuesday 69.9%." */
export function spoken(parts) {
  return parts.map((s) => `${s.name}: ${s.points.map((p) => `${p.label} ${p.say}`).join(', ')}.`).join(' ');
}
