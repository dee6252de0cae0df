// Marks the words a search matched inside a title, with <mark> elements built through the DOM
// (never innerHTML: titles are other people's text). Matching folds case and diacritics, so
// the term "creme" marks "Crème", and works inside words ("robot" in "Mr. Robot's").

/** One character, lower-cased and without its accents ("É" → "e"; "ß" stays one character). */
function foldChar(char) {
  const folded = char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.length === 1 ? folded : char.toLowerCase().slice(0, 1) || char;
}

export function fold(text) {
  return [...text].map(foldChar).join('');
}

/** The words of a query worth marking: operators (tag:, -tag:, @, quotes, OR) left out. */
export function queryTerms(query) {
  return (query ?? '')
    .split(/\s+/)
    .filter((word) => word && !word.startsWith('-') && !/^(or|and|not|near)$/i.test(word))
    .map((word) => word.replace(/^(tag:|@)/i, '').replace(/[^\p{L}\p{N}]+/gu, ' ').trim())
    .flatMap((word) => word.split(' '))
    .filter((word) => word.length >= 1);
}

/** [start, end) ranges of `text` (in characters) that match any term, merged. */
export function matchRanges(text, terms) {
  const chars = [...text];
  const folded = chars.map(foldChar).join('');
  const ranges = [];
  for (const term of new Set(terms.map(fold).filter(Boolean))) {
    let from = 0;
    for (;;) {
      const at = folded.indexOf(term, from);
      if (at < 0) break;
      ranges.push([at, at + term.length]);
      from = at + term.length;
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** Fills `element` with `text`, the matched parts inside <mark>. */
export function highlightInto(element, text, terms) {
  const chars = [...text];
  let position = 0;
  element.replaceChildren();
  for (const [start, end] of matchRanges(text, terms)) {
    if (start > position) element.append(chars.slice(position, start).join(''));
    const mark = document.createElement('mark');
    mark.textContent = chars.slice(start, end).join('');
    element.append(mark);
    position = end;
  }
  if (position < chars.length) element.append(chars.slice(position).join(''));
}
