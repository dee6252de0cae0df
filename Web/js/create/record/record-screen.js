// The record screen: camera preview with a look, hold to record, review the take (retake or
// post it, or add it to your story). The look travels as the upload's `filter` metadata; the
// server applies it for real, to a post and a story alike.
import { openCamera, closeCamera, startRecording, CameraError } from './camera.js';
import { makeHoldButton } from './hold-button.js';
import { renderFilterPicker, filterById } from '../filters.js';
import { readPostFields } from '../post-fields.js';
import { addUploadRow } from '../upload/upload-row.js';
import { showToast } from '../../ui/toast.js';
import { renderDestinationPicker, destinationMetadata, initialDestination } from '../destination.js';

export const RECORD_LIMIT_SECONDS = 60;
const MIN_SECONDS = 0.8;

export function startRecordScreen({ chunkSize, me } = {}) {
  const $ = (id) => document.getElementById(id);
  const preview = $('camera-preview');
  const review = $('take-preview');
  const status = $('camera-status');
  const cameraButton = $('camera-start');
  const recordButton = $('record-button');
  const takeActions = $('take-actions');
  $('record-limit').textContent = String(RECORD_LIMIT_SECONDS);

  let stream = null;
  let recording = null;
  let take = null;          // { blob, url, seconds }
  let look = filterById('none');

  const applyLook = () => {
    preview.style.filter = look.css;
    review.style.filter = look.css;
  };
  renderFilterPicker($('filter-strip'), { selected: look.id, onChange: (filter) => { look = filter; applyLook(); } });
  const postButton = $('post-take');
  const labelPostButton = (to) => { postButton.textContent = to === 'story' ? 'Share to your story' : 'Post'; };
  const destination = renderDestinationPicker($('record-destination'), {
    name: 'record-destination', fields: $('record-fields'), initial: initialDestination(), onChange: labelPostButton,
  });
  labelPostButton(destination.value());

  const showCamera = () => {
    review.hidden = true;
    review.removeAttribute('src');
    review.load();
    preview.hidden = false;
    takeActions.hidden = true;
    recordButton.hidden = !stream;
    cameraButton.hidden = Boolean(stream);
  };

  const turnOn = async () => {
    cameraButton.disabled = true;
    status.textContent = 'Opening the camera…';
    try {
      stream = await openCamera();
      preview.srcObject = stream;
      await preview.play().catch(() => {});
      status.textContent = stream.getAudioTracks().length ? '' : 'No microphone: recording without sound.';
      showCamera();
      recordButton.focus();
    } catch (error) {
      status.textContent = error instanceof CameraError ? error.message : `The camera could not be opened: ${error.message}`;
    } finally {
      cameraButton.disabled = false;
    }
  };

  const hold = makeHoldButton(recordButton, {
    ring: $('record-ring-fill'), clock: $('record-time'), limitSeconds: RECORD_LIMIT_SECONDS,
    onStart: async () => {
      recording = startRecording(stream);
      status.textContent = 'Recording…';
    },
    onStop: async (seconds) => {
      const blob = await recording.stop();
      recording = null;
      if (seconds < MIN_SECONDS || blob.size === 0) {
        status.textContent = 'Too short: hold the button to record.';
        hold.reset();
        return;
      }
      if (take) URL.revokeObjectURL(take.url);
      take = { blob, url: URL.createObjectURL(blob), seconds };
      status.textContent = `Recorded ${seconds.toFixed(1)} s. Review it, then post or retake.`;
      preview.hidden = true;
      recordButton.hidden = true;
      review.src = take.url;
      review.hidden = false;
      review.play().catch(() => {});
      takeActions.hidden = false;
      $('post-take').focus({ preventScroll: true });
    },
  });

  $('retake').addEventListener('click', () => {
    if (take) URL.revokeObjectURL(take.url);
    take = null;
    hold.reset();
    status.textContent = '';
    showCamera();
    recordButton.focus();
  });

  $('post-take').addEventListener('click', () => {
    if (!take) return;
    const story = destination.value() === 'story';
    const { description, tags: typed } = readPostFields($('record-fields'));
    const tags = story ? [] : typed;   // a story has no tags (its field is hidden)
    const extension = take.blob.type.includes('mp4') ? 'mp4' : 'webm';
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = new File([take.blob], `recording-${stamp}.${extension}`, { type: take.blob.type, lastModified: Date.now() });
    addUploadRow($('record-uploads'), {
      file, tags, chunkSize, story: story ? { username: me.name } : null,
      metadata: { filename: file.name, filetype: file.type, description, tags: tags.join(','), filter: look.id, ...destinationMetadata(destination.value()) },
    });
    showToast(`${story ? 'Adding your recording to your story' : 'Posting your recording'} with the ${look.label.toLowerCase()} look.`);
    take = null;   // its blob lives on in the upload; the object URL stays for the review player
    hold.reset();
    showCamera();
  });

  cameraButton.addEventListener('click', turnOn);
  return {
    /** The camera is turned off whenever the screen is left: no light on when not in use. */
    leave() {
      hold.release();
      closeCamera(stream);
      stream = null;
      preview.srcObject = null;
      showCamera();
    },
  };
}
