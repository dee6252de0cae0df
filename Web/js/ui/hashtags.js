// The server's `Hashtags.find` (ReelModels) in the browser, so the web links and hides exactly
// the tags the server makes from a caption: a `#` not glued to a word or to a `#` (unless a tag
// just ended there: `#one#two` is two), then letters, marks, digits and underscores, with at
// least one letter (`#3` is a number). A hyphen ends a tag, as on Instagram: `#café-time` is
// the tag `café`. Both sides are tested on the same text (app.test.js, SidecarEdgeCaseTests).

const CANDIDATE = /#([\p{L}\p{M}\p{N}_]+)/gu;
const GLUED = /[\p{L}\p{M}\p{N}_#]$/u;
const LETTER = /\p{L}/u;

/** Each hashtag of `text` in order: where it starts (its `#`) and ends, and the tag lowercased. */
export function findHashtags(text) {
  const source = String(text ?? '');
  const found = [];
  let tagEnd = -1;   // where the last `#word` at a tag's place ended
  for (const match of source.matchAll(CANDIDATE)) {
    // Two UTF-16 units hold the code point before the `#`, whatever plane it is in.
    const before = source.slice(Math.max(0, match.index - 2), match.index);
    if (match.index !== tagEnd && GLUED.test(before)) continue;
    tagEnd = match.index + match[0].length;
    if (LETTER.test(match[1])) found.push({ start: match.index, end: tagEnd, tag: match[1].toLowerCase() });
  }
  return found;
}
