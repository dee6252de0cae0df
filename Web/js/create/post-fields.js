// The description and tags every create screen asks for. Tags are typed as "ocean, city" or
// "#ocean #city"; the server validates names again and answers 400 with the reason.

export function readPostFields(fieldset) {
  const description = fieldset.querySelector('[name=description]').value.trim();
  const tags = fieldset.querySelector('[name=tags]').value
    .split(/[\s,]+/)
    .map((tag) => tag.replace(/^#/, '').trim().toLowerCase())
    .filter(Boolean);
  return { description, tags: [...new Set(tags)] };
}

export function setPostFieldsDisabled(fieldset, disabled) {
  fieldset.disabled = disabled;
}

/** Where the feed shows a new post: filtered by its first tag when it has one. */
export function feedLinkFor(tags) {
  return tags.length ? `/?tag=${encodeURIComponent(tags[0])}` : '/';
}

/** "Published" with a link into the feed, in place of the progress it replaces. */
export function renderPublished(container, { postId, tags }) {
  container.replaceChildren();
  const text = document.createElement('span');
  text.textContent = postId ? `Published as post ${postId}. ` : 'Published. ';
  const link = document.createElement('a');
  link.href = feedLinkFor(tags);
  link.className = 'post-link';
  if (postId) link.dataset.postId = String(postId);
  link.textContent = tags.length ? `See it in the feed (#${tags[0]})` : 'See it in the feed';
  container.append(text, link);
  container.hidden = false;
}
