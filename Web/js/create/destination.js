// Where an upload or a recording goes: a post in the library, or the person's story. A story
// is uploaded exactly like a post (same tus upload, same look) with the tus metadata
// `story` = `1` (docs/stories-api.md, "Posting stories"); the server files it as the
// uploader's story, shown 24 h in the tray, never in the feed. A story has a caption but no
// tags, so the tags field hides while "Your story" is chosen.
//
// `/create.html?to=story#record` opens with "Your story" chosen (the tray's "add to your
// story" can link there). The choice is not remembered across visits: a person who once
// posted a story should not later post to their story by surprise.

import { ApiError } from '../api.js';
import { createApi } from './create-api.js';

const LABELS = { post: 'Post', story: 'Your story' };
// Lifetime and photo time are server settings (24 h and 5 s by default): the hint names neither.
const STORY_HINT = 'Your story shows in the stories tray, not in the feed, and leaves the tray after a day. '
  + 'A photo stays on screen for a few seconds; a video longer than a minute plays as one-minute parts.';

/** The destination the page was opened for: `?to=story`, else a post. */
export function initialDestination(search = location.search) {
  return new URLSearchParams(search).get('to') === 'story' ? 'story' : 'post';
}

/** The tus metadata a destination adds to an upload's. */
export function destinationMetadata(destination) {
  return destination === 'story' ? { story: '1' } : {};
}

/** Where a person's stories play (the web app's `/stories/{username}` route). */
export function storyLinkFor(username) {
  return `/stories/${encodeURIComponent(username)}`;
}

/**
 * A two-choice radio group ("Post" / "Your story"; arrow keys move between them, as in any
 * radio group) in `container`, and what the choice changes in `fields` (the screen's post
 * details fieldset). onChange(destination) after each change.
 */
export function renderDestinationPicker(container, { name, fields, initial = 'post', onChange }) {
  let destination = initial;
  const group = document.createElement('div');
  group.setAttribute('role', 'radiogroup');
  group.setAttribute('aria-label', 'Share as');
  group.className = 'destination-picker';
  const hint = document.createElement('p');
  hint.className = 'hint destination-hint';
  hint.textContent = STORY_HINT;
  const show = () => {
    hint.hidden = destination !== 'story';
    applyToFields(fields, destination);
  };
  for (const value of Object.keys(LABELS)) {
    const label = document.createElement('label');
    label.className = 'destination-choice';
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = value;
    input.checked = value === destination;
    input.addEventListener('change', () => {
      if (!input.checked) return;
      destination = value;
      show();
      onChange?.(destination);
    });
    const text = document.createElement('span');
    text.textContent = LABELS[value];
    label.append(input, text);
    group.append(label);
  }
  container.replaceChildren(group, hint);
  show();
  return { value: () => destination };
}

/** A story's details: "Caption" instead of "Description", and no tags. */
function applyToFields(fields, destination) {
  if (!fields) return;
  const story = destination === 'story';
  fields.dataset.destination = destination;
  const legend = fields.querySelector('legend');
  if (legend) legend.textContent = story ? 'Story details' : 'Post details';
  const description = fields.querySelector('[name=description]');
  const descriptionLabel = description?.closest('label')?.firstChild;
  if (descriptionLabel?.nodeType === Node.TEXT_NODE) descriptionLabel.textContent = story ? 'Caption ' : 'Description ';
  const tags = fields.querySelector('[name=tags]')?.closest('label');
  if (tags) tags.hidden = story;
}

/**
 * For followPublication's `appeared`: resolves once the post is among `username`'s live
 * stories, and throws a 404 ApiError (try again) until then.
 */
export function storyAppeared(username) {
  return async (postId) => {
    const page = await createApi.stories(username);
    if (!page?.items?.some((item) => item.id === postId)) throw new ApiError(404, 'not_found', 'not in the story yet');
  };
}

/** "Added to your story" with a link to the person's stories, in place of the progress. */
export function renderStoryPublished(container, { postId, username }) {
  container.replaceChildren();
  const text = document.createElement('span');
  text.textContent = 'Added to your story. ';
  const link = document.createElement('a');
  link.href = storyLinkFor(username);
  link.className = 'post-link story-link';
  if (postId) link.dataset.postId = String(postId);
  link.textContent = 'See your story';
  container.append(text, link);
  container.hidden = false;
}
