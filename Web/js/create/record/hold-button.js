// Hold-to-record: pointer down (or Space/Enter held on the focused button) starts, release
// stops; the ring fills with the time used and recording stops by itself at the limit.
const CIRCUMFERENCE = 2 * Math.PI * 45;

export function makeHoldButton(button, { ring, clock, limitSeconds, onStart, onStop }) {
  let startedAt = null;
  let frame = 0;
  ring.style.strokeDasharray = String(CIRCUMFERENCE);
  ring.style.strokeDashoffset = String(CIRCUMFERENCE);

  const draw = () => {
    const seconds = startedAt === null ? 0 : (performance.now() - startedAt) / 1000;
    ring.style.strokeDashoffset = String(CIRCUMFERENCE * (1 - Math.min(1, seconds / limitSeconds)));
    clock.textContent = `${seconds.toFixed(1)} s`;
    if (startedAt !== null && seconds >= limitSeconds) { release(); return; }
    if (startedAt !== null) frame = requestAnimationFrame(draw);
  };

  const press = async () => {
    if (startedAt !== null || button.disabled) return;
    startedAt = performance.now();
    button.classList.add('recording');
    button.setAttribute('aria-pressed', 'true');
    try {
      await onStart();
    } catch (error) {
      startedAt = null;
      button.classList.remove('recording');
      button.setAttribute('aria-pressed', 'false');
      throw error;
    }
    frame = requestAnimationFrame(draw);
  };

  const release = () => {
    if (startedAt === null) return;
    const seconds = (performance.now() - startedAt) / 1000;
    startedAt = null;
    cancelAnimationFrame(frame);
    button.classList.remove('recording');
    button.setAttribute('aria-pressed', 'false');
    clock.textContent = `${Math.min(seconds, limitSeconds).toFixed(1)} s`;
    onStop(Math.min(seconds, limitSeconds));
  };

  button.setAttribute('aria-pressed', 'false');
  button.addEventListener('pointerdown', (event) => {
    event.preventDefault();
    button.setPointerCapture?.(event.pointerId);
    press();
  });
  button.addEventListener('pointerup', release);
  button.addEventListener('pointercancel', release);
  button.addEventListener('lostpointercapture', release);
  button.addEventListener('contextmenu', (event) => event.preventDefault());   // long-press menus
  button.addEventListener('keydown', (event) => {
    if ((event.key === ' ' || event.key === 'Enter') && !event.repeat) { event.preventDefault(); press(); }
    else if (event.key === ' ' || event.key === 'Enter') event.preventDefault();
  });
  button.addEventListener('keyup', (event) => {
    if (event.key === ' ' || event.key === 'Enter') { event.preventDefault(); release(); }
  });
  button.addEventListener('blur', release);
  return { release, reset: () => { ring.style.strokeDashoffset = String(CIRCUMFERENCE); clock.textContent = '0.0 s'; } };
}
