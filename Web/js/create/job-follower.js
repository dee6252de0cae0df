// Follows server jobs until they end: the job's server-sent events stream when the server has
// one, otherwise GET /api/v1/jobs/{id} with a gentle back-off. Reports { state, progress,
// etaSeconds, reason } as they change and resolves with the final job ('succeeded' | 'failed').
import { createApi } from './create-api.js';

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);
const POLL_MS = [500, 1000, 1000, 2000, 3000];

function normalise(job) {
  const state = job.state ?? 'queued';
  return {
    id: job.id, state, postId: job.post_id ?? null,
    progress: typeof job.progress === 'number' ? Math.min(1, Math.max(0, job.progress > 1 ? job.progress / 100 : job.progress)) : null,
    etaSeconds: job.eta_seconds ?? null,
    reason: job.failure_reason ?? job.reason ?? job.last_error ?? null,
    done: TERMINAL.has(state),
  };
}

export function followJob(id, { onUpdate, signal } = {}) {
  return new Promise((resolve, reject) => {
    let finished = false;
    const finish = (job, error) => {
      if (finished) return;
      finished = true;
      source?.close();
      clearTimeout(timer);
      error ? reject(error) : resolve(job);
    };
    const report = (raw) => {
      const job = normalise(raw);
      onUpdate?.(job);
      if (job.done) finish(job);
    };
    signal?.addEventListener('abort', () => finish(null, new DOMException('stopped', 'AbortError')), { once: true });

    let timer = null;
    let polls = 0;
    const poll = async () => {
      if (finished) return;
      try {
        report(await createApi.job(id));
      } catch (error) {
        if (error.status === 401 || error.status === 404) { finish(null, error); return; }
        // Offline or a server hiccup: keep following; the job carries on without us.
      }
      if (!finished) timer = setTimeout(poll, POLL_MS[Math.min(polls++, POLL_MS.length - 1)]);
    };

    // The events stream first; a server without it (404) or a broken stream falls back to polls.
    let source = null;
    let heard = false;
    if ('EventSource' in window) {
      source = new EventSource(`/api/v1/jobs/${id}/events`);
      const onEvent = (event) => {
        heard = true;
        try { report(JSON.parse(event.data)); } catch { /* a keep-alive or a comment */ }
      };
      source.onmessage = onEvent;
      for (const name of ['job', 'progress', 'state', 'done', 'failed']) source.addEventListener(name, onEvent);
      source.onerror = () => {
        if (finished) return;
        if (!heard || source.readyState === EventSource.CLOSED) {
          source.close();
          source = null;
          poll();
        }
      };
    } else {
      poll();
    }
  });
}

/**
 * Waits for every job of a post, then for the post to be readable: `appeared(postId)` resolves
 * once it is, and throws an ApiError 404 (or 0, offline) while it is not yet. By default the
 * post itself (it is in the feed); a story is never a readable post (its status is `story`),
 * so the story screens pass a look into the person's stories instead (destination.js).
 */
export async function followPublication({
  postId, jobIds = [], onUpdate, signal, appeared = createApi.video,
  whereToLook = 'Check the feed in a minute.',
}) {
  const progress = new Map(jobIds.map((id) => [id, 0]));
  for (const id of jobIds) {
    const job = await followJob(id, {
      signal,
      onUpdate: (update) => {
        progress.set(id, update.progress ?? (update.done ? 1 : 0));
        const overall = [...progress.values()].reduce((sum, value) => sum + value, 0) / progress.size;
        onUpdate?.({ ...update, progress: overall });
      },
    });
    if (job.state !== 'succeeded') return { ok: false, reason: job.reason ?? `processing ${job.state}` };
    postId ??= job.postId;
  }
  if (!postId) return { ok: true, postId: null };
  for (let attempt = 0; attempt < 30; attempt += 1) {
    try {
      await appeared(postId);
      return { ok: true, postId };
    } catch (error) {
      if (error.status !== 404 && error.status !== 0) return { ok: false, reason: error.message };
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { ok: false, reason: `The post was processed but did not appear. ${whereToLook}` };
}
