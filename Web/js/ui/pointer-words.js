// Words for the person's pointer: "Tap" on a touch screen, "Click" with a mouse. Read each time
// a label is made, so a tablet with a mouse attached gets the right one on the next screen.

const coarse = () => globalThis.matchMedia?.('(pointer: coarse)').matches ?? false;

/** "Tap" or "Click", capitalised as a sentence starts. */
export const tapWord = () => (coarse() ? 'Tap' : 'Click');

/** "tap" or "click", inside a sentence. */
export const tapVerb = () => tapWord().toLowerCase();
