// One upload in a list: name, progress, pause/resume, cancel, then the processing progress (which
// can be stopped, and retried when it failed) and the link to the published post. Used for
// picked files and for recordings alike, posts and stories alike (`story`: { username } when
// the upload goes to that person's story: it is followed into their stories, not the feed).
import { TusUpload } from '../tus/tus-client.js';
import { createApi } from '../create-api.js';
import { followPublication } from '../job-follower.js';
import { renderPublished, feedLinkFor } from '../post-fields.js';
import { renderStoryPublished, storyAppeared, storyLinkFor } from '../destination.js';

const MB = 1024 * 1024;

function formatSize(bytes) {
  return bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function addUploadRow(list, { file, metadata, tags, chunkSize, story = null }) {
  const row = element('li', 'upload-row');
  row.dataset.state = 'idle';
  row.dataset.destination = story ? 'story' : 'post';
  const name = element('span', 'upload-name', file.name);
  const size = element('span', 'upload-size', formatSize(file.size));
  const bar = element('progress', 'upload-progress');
  bar.max = 1;
  bar.value = 0;
  bar.setAttribute('aria-label', `Upload of ${file.name}`);
  const status = element('span', 'upload-status', 'Starting…');
  status.setAttribute('role', 'status');
  const toggle = element('button', 'upload-toggle', 'Pause');
  toggle.type = 'button';
  const cancel = element('button', 'upload-cancel', 'Cancel');
  cancel.type = 'button';
  cancel.setAttribute('aria-label', `Cancel the upload of ${file.name}`);
  const result = element('div', 'upload-result');
  result.hidden = true;
  const actions = element('span', 'upload-actions');
  actions.append(toggle, cancel);
  row.append(name, size, bar, status, actions, result);
  list.append(row);

  const upload = new TusUpload(file, {
    metadata, chunkSize,
    onProgress: (sent, total) => {
      bar.value = total ? sent / total : 1;
      if (upload.state === 'uploading') status.textContent = `Uploading ${Math.floor(bar.value * 100)}% (${formatSize(sent)} of ${formatSize(total)})`;
    },
    onState: (state) => {
      row.dataset.state = state;
      toggle.hidden = !(state === 'uploading' || state === 'paused' || state === 'failed');
      toggle.textContent = state === 'uploading' ? 'Pause' : (state === 'failed' ? 'Try again' : 'Resume');
      toggle.setAttribute('aria-label', `${toggle.textContent} the upload of ${file.name}`);
      cancel.hidden = state === 'complete' || state === 'cancelled';
      if (state === 'paused') status.textContent = `Paused at ${Math.floor(bar.value * 100)}%`;
      if (state === 'failed') status.textContent = upload.error?.message ?? 'The upload failed.';
      if (state === 'cancelled') status.textContent = 'Cancelled';
    },
    onComplete: (done) => followProcessing(done),
  });
  if (upload.resumable) status.textContent = 'Resuming where it stopped…';

  // Set while the server processes the upload: Cancel then stops the job, Try again retries it.
  let processing = null;

  function showJobControls(state) {
    toggle.hidden = state !== 'failed';
    toggle.textContent = 'Retry processing';
    toggle.setAttribute('aria-label', `Retry processing ${file.name}`);
    cancel.hidden = state !== 'processing';
    cancel.textContent = 'Stop';
    cancel.setAttribute('aria-label', `Stop processing ${file.name}`);
  }

  async function followProcessing({ jobId, postId }) {
    processing = { jobId, postId };
    bar.value = 0;
    row.dataset.state = 'processing';
    if (jobId) showJobControls('processing');
    status.textContent = 'Uploaded. Processing…';
    if (!jobId && !postId) {
      // The server did not name the job: the post appears in the feed when processing ends.
      row.dataset.state = 'uploaded';
      status.textContent = story ? 'Uploaded. It appears in your story once processed.' : 'Uploaded. It appears in the feed once processed.';
      const link = element('a', 'post-link', story ? 'Open your story' : 'Open the feed');
      link.href = story ? storyLinkFor(story.username) : feedLinkFor(tags);
      result.replaceChildren(link);
      result.hidden = false;
      return;
    }
    const outcome = await followPublication({
      postId, jobIds: jobId ? [jobId] : [],
      ...(story ? { appeared: storyAppeared(story.username), whereToLook: 'Look at your story in a minute.' } : {}),
      onUpdate: (job) => {
        bar.value = job.progress ?? 0;
        const eta = job.etaSeconds ? `, about ${Math.ceil(job.etaSeconds)} s left` : '';
        status.textContent = job.state === 'queued' ? 'Uploaded. Waiting to be processed…' : `Processing ${Math.floor(bar.value * 100)}%${eta}`;
      },
    }).catch((error) => ({ ok: false, reason: error.message }));
    if (outcome.ok) {
      bar.value = 1;
      row.dataset.state = 'published';
      status.textContent = story ? 'In your story' : 'Published';
      if (story) renderStoryPublished(result, { postId: outcome.postId, username: story.username });
      else renderPublished(result, { postId: outcome.postId, tags });
      processing = null;
      toggle.hidden = true;
      cancel.hidden = true;
    } else {
      row.dataset.state = 'failed';
      status.textContent = `Processing failed: ${outcome.reason}`;
      if (jobId) showJobControls('failed');
    }
  }

  async function controlJob(action) {
    try {
      await action(processing.jobId);
      return true;
    } catch (error) {
      status.textContent = error.message;
      return false;
    }
  }

  toggle.addEventListener('click', async () => {
    if (processing) {
      if (await controlJob(createApi.retryJob)) followProcessing(processing);
    } else if (upload.state === 'uploading') {
      upload.pause();
    } else {
      upload.start();
    }
  });
  cancel.addEventListener('click', () => {
    if (processing) controlJob(createApi.cancelJob); else upload.cancel();
  });
  upload.start();
  return { row, upload };
}
