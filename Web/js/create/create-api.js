// The create screens' JSON calls (generations, jobs, posts), through api.js's one request
// function: every failure is an ApiError with the server's {code, message} and Retry-After.
import { request } from '../api.js';

export const createApi = {
  providers: () => request('GET', '/api/v1/generations/providers'),
  generate: (body) => request('POST', '/api/v1/generations', body),
  generation: (id) => request('GET', `/api/v1/generations/${id}`),
  publishGeneration: (id, body) => request('POST', `/api/v1/generations/${id}/publish`, body),
  discardGeneration: (id) => request('POST', `/api/v1/generations/${id}/discard`),
  regenerate: (id, body) => request('POST', `/api/v1/generations/${id}/regenerate`, body),
  job: (id) => request('GET', `/api/v1/jobs/${id}`),
  cancelJob: (id) => request('POST', `/api/v1/jobs/${id}/cancel`),
  retryJob: (id) => request('POST', `/api/v1/jobs/${id}/retry`),
  video: (id) => request('GET', `/api/v1/videos/${id}`),
  /** A person's live stories (404 while they have none). */
  stories: (username) => request('GET', `/api/v1/stories/${encodeURIComponent(username)}`),
};
