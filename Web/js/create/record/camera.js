// Camera and microphone for recording: getUserMedia with a portrait preference, and
// MediaRecorder with the best container this browser has (Chromium: WebM VP9/Opus).
const TYPES = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4'];

export class CameraError extends Error {}

export async function openCamera() {
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraError('This browser cannot use a camera here (it needs HTTPS or localhost).');
  const video = { facingMode: 'user', width: { ideal: 720 }, height: { ideal: 1280 }, frameRate: { ideal: 30 } };
  try {
    return await navigator.mediaDevices.getUserMedia({ video, audio: true });
  } catch (error) {
    if (error.name === 'NotFoundError' || error.name === 'OverconstrainedError') {
      // No microphone (or no camera matching the wishes): a silent clip is still a clip.
      try { return await navigator.mediaDevices.getUserMedia({ video: true, audio: false }); } catch { /* fall through */ }
    }
    if (error.name === 'NotAllowedError') throw new CameraError('Camera access was refused. Allow it in the browser to record.');
    throw new CameraError(`The camera could not be opened (${error.name}).`);
  }
}

export function closeCamera(stream) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

export function recordingType() {
  if (!('MediaRecorder' in window)) return null;
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

/** Starts recording `stream`; `stop()` resolves with the whole take as one Blob. */
export function startRecording(stream) {
  const type = recordingType();
  if (type === null) throw new CameraError('This browser cannot record video.');
  const recorder = new MediaRecorder(stream, type ? { mimeType: type, videoBitsPerSecond: 2_500_000 } : undefined);
  const chunks = [];
  recorder.ondataavailable = (event) => { if (event.data.size) chunks.push(event.data); };
  const stopped = new Promise((resolve) => {
    recorder.onstop = () => resolve(new Blob(chunks, { type: recorder.mimeType || type || 'video/webm' }));
  });
  recorder.start(250);
  return {
    stop() {
      if (recorder.state !== 'inactive') recorder.stop();
      return stopped;
    },
  };
}
