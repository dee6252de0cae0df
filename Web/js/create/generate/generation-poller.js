// Polls one generation until it leaves queued/running, backing off from 0.5 s to 3 s, and
// reports each state to onUpdate. Resolves with the final generation.
import { createApi } from '../create-api.js';

const DELAYS_MS = [500, 750, 1000, 1500, 2000, 3000];

export async function pollGeneration(id, { onUpdate, signal }) {
  for (let attempt = 0; ; attempt += 1) {
    if (signal?.aborted) throw new DOMException('stopped', 'AbortError');
    let generation = null;
    try {
      generation = await createApi.generation(id);
      onUpdate(generation);
      if (generation.state !== 'queued' && generation.state !== 'running') return generation;
    } catch (error) {
      if (error.status !== 0 && error.status < 500) throw error;   // offline or 5xx: keep trying
    }
    await new Promise((resolve) => setTimeout(resolve, DELAYS_MS[Math.min(attempt, DELAYS_MS.length - 1)]));
  }
}
