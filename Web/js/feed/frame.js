// How a reel's stage frames its item, decided from the API's width and height. Portrait fills
// the phone screen or the desktop's 9:16 column (cropping a little). Anything wider is shown
// whole: on a phone inside the full screen, on a wide screen in a frame of its own shape
// (`--ratio`, bounded by the viewport in feed.css) rather than letterboxed in the 9:16 column.

const PORTRAIT = 9 / 16;

export function frameFor(item) {
  const ratio = item.width > 0 && item.height > 0 ? item.width / item.height : PORTRAIT;
  return ratio > 0.7 ? { fit: 'contain', shape: 'own', ratio } : { fit: 'cover', shape: 'portrait', ratio };
}

/** `sizes` for an image on the stage: its frame's width on a wide screen (the height the
 *  column would have × the frame's ratio), the screen's width on a phone. */
export function imageSizes(frame) {
  const ratio = frame.shape === 'own' ? frame.ratio : PORTRAIT;
  return `(min-width: 900px) calc((100vh - 40px) * ${ratio.toFixed(4)}), 100vw`;
}

/** Applies the frame to a stage element (a custom property, so no inline style markup). */
export function applyFrame(stage, frame) {
  stage.dataset.fit = frame.fit;
  stage.dataset.shape = frame.shape;
  stage.style.setProperty('--ratio', frame.ratio.toFixed(4));
}
