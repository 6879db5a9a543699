// Optional sounds, off by default: made on the spot with the Web Audio API (no sound files), a
// soft tap when a card is played, a brush when a trick is gathered, a chime when it is the
// person's turn. The switch is remembered in the browser.

const STORE = "oudler.sound";
let ctx = null;

// Every sound asked for while the switch is on (kind and time), for tests and tools.
export const played = [];

export function soundOn() {
  return localStorage.getItem(STORE) === "1";
}

export function setSound(on) {
  localStorage.setItem(STORE, on ? "1" : "0");
  if (on) audio(); // made in the click that turned it on, as browsers want
}

function audio() {
  if (!ctx) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    ctx = new Ctx();
  }
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

function envelope(a, start, peak, length) {
  const g = a.createGain();
  g.gain.setValueAtTime(0.0001, start);
  g.gain.exponentialRampToValueAtTime(peak, start + 0.008);
  g.gain.exponentialRampToValueAtTime(0.0001, start + length);
  g.connect(a.destination);
  return g;
}

function noise(a, start, length, frequency, peak) {
  const buffer = a.createBuffer(1, Math.ceil(a.sampleRate * length), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  const src = a.createBufferSource();
  src.buffer = buffer;
  const filter = a.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = frequency;
  src.connect(filter).connect(envelope(a, start, peak, length));
  src.start(start);
}

function tone(a, start, frequency, length, peak) {
  const osc = a.createOscillator();
  osc.type = "sine";
  osc.frequency.value = frequency;
  osc.connect(envelope(a, start, peak, length));
  osc.start(start);
  osc.stop(start + length + 0.05);
}

export function play(kind) {
  if (!soundOn()) return;
  const a = audio();
  if (!a) return;
  played.push({ kind, at: Date.now() });
  const now = a.currentTime + 0.01;
  if (kind === "card") noise(a, now, 0.07, 2200, 0.25);
  else if (kind === "gather") noise(a, now, 0.22, 900, 0.18);
  else if (kind === "turn") {
    tone(a, now, 660, 0.25, 0.12);
    tone(a, now + 0.12, 880, 0.3, 0.1);
  }
}
