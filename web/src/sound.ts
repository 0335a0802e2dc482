// The game's sounds: a move, a capture and the end of a game, made with
// Web Audio (no sound files), and a mute switch this browser remembers.

const muteKey = "arbiter.muted";

export type SoundKind = "move" | "capture" | "end";

// tones are each sound's notes: frequency (Hz), start and length (s).
const tones: Record<SoundKind, [number, number, number][]> = {
  move: [[520, 0, 0.06]],
  capture: [[330, 0, 0.07], [260, 0.07, 0.09]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]],
};

export function muted(): boolean {
  try {
    return localStorage.getItem(muteKey) === "1";
  } catch {
    return false;
  }
}

export function setMuted(on: boolean): void {
  try {
    localStorage.setItem(muteKey, on ? "1" : "0");
  } catch {
    // A browser that keeps nothing mutes for this page only.
  }
}

// Sounds plays the game's sounds on one audio context, made at the first
// sound (browsers start audio only after the person touched the page).
export class Sounds {
  private ctx: AudioContext | null = null;

  play(kind: SoundKind): void {
    document.body.dataset.sound = muted() ? "" : kind; // what was heard last, for tests
    if (muted() || typeof AudioContext === "undefined") return;
    try {
      this.ctx ??= new AudioContext();
      if (this.ctx.state === "suspended") void this.ctx.resume();
      const now = this.ctx.currentTime;
      for (const [freq, start, length] of tones[kind]) this.tone(freq, now + start, length);
    } catch {
      // No audio here: the game goes on in silence.
    }
  }

  private tone(freq: number, at: number, length: number): void {
    const ctx = this.ctx!;
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(at);
    osc.stop(at + length + 0.02);
  }
}
