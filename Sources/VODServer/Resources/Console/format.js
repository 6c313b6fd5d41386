// How the console writes durations, sizes, rates and times left.

/** Seconds as `m:ss` or `h:mm:ss`. */
export function duration(seconds) {
  if (seconds == null || !Number.isFinite(seconds)) return '';
  const whole = Math.max(0, Math.round(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Bytes in B, kB, MB or GB. */
export function bytes(count) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = count;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 || value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** A whole percentage of a fraction from 0 to 1. */
export function percent(fraction) {
  return `${Math.floor(Math.min(1, Math.max(0, fraction)) * 100)} %`;
}

/** Seconds left, roughly: `12 s`, `4 min`, `2 h`. */
export function timeLeft(seconds) {
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 60) return `${Math.ceil(seconds)} s left`;
  if (seconds < 3600) return `${Math.ceil(seconds / 60)} min left`;
  return `${(seconds / 3600).toFixed(1)} h left`;
}

/** Speeds of a transfer measured over the last few seconds. */
export class RateMeter {
  constructor(windowSeconds = 5) {
    this.windowMs = windowSeconds * 1000;
    this.samples = [];
  }

  /** Records that `loaded` bytes have been sent by now. */
  add(loaded) {
    const now = performance.now();
    this.samples.push({ time: now, loaded });
    while (this.samples.length > 2 && now - this.samples[0].time > this.windowMs) this.samples.shift();
  }

  /** Bytes per second over the window, or NaN before two samples. */
  get rate() {
    if (this.samples.length < 2) return NaN;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const seconds = (last.time - first.time) / 1000;
    return seconds > 0 ? (last.loaded - first.loaded) / seconds : NaN;
  }
}
