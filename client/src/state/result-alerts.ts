import { useAtom } from 'jotai';
import { atomWithStorage } from 'jotai/utils';

/**
 * Whether a settled order also beeps and vibrates (settings page). Off by default: a trading app
 * that makes noise unasked is a bad neighbour. Kept per device in local storage.
 */
export const resultSoundAtom = atomWithStorage('resultSound', false, undefined, {
  getOnInit: true,
});
export const resultVibrationAtom = atomWithStorage('resultVibration', false, undefined, {
  getOnInit: true,
});

type AudioContextClass = new () => AudioContext;

/** A short beep through Web Audio: higher for a win. Silent where audio is blocked. */
export function beep(won: boolean): void {
  try {
    const Ctor = (globalThis as { AudioContext?: AudioContextClass }).AudioContext;
    if (!Ctor) return;
    const ctx = new Ctor();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = won ? 880 : 440;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.18);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.2);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio (autoplay policy, no device): the sheet still shows the result.
  }
}

/** A short vibration where the device has one: two pulses for a win, one otherwise. */
export function vibrate(won: boolean): void {
  try {
    navigator.vibrate?.(won ? [60, 40, 60] : 120);
  } catch {
    // Not allowed here: nothing to do.
  }
}

/** The settings switch of one alert: [on, set]. */
export function useResultAlert(kind: 'sound' | 'vibration'): [boolean, (on: boolean) => void] {
  const [on, setOn] = useAtom(kind === 'sound' ? resultSoundAtom : resultVibrationAtom);
  return [on, setOn];
}
