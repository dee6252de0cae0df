// Every collection the person can see (GET /api/v1/collections), as a row of covers on
// Discover: the collection's cover picture, its name and how many posts it holds. Discover's
// own collection shelves leave out empty collections; this row reaches every one.
import { SHELF_SIZES } from './shelf-row.js';

function card(collection) {
  const cell = document.createElement('li');
  cell.className = 'cover-cell collection-card';
  const link = document.createElement('a');
  link.className = 'cover';
  link.href = `/collection/${collection.id}`;
  link.dataset.collectionId = String(collection.id);
  const count = Number(collection.count) || 0;
  link.setAttribute('aria-label', `${collection.name}, ${count} ${count === 1 ? 'post' : 'posts'}`);
  if (collection.cover?.url) {
    const image = document.createElement('img');
    image.alt = '';
    image.loading = 'lazy';
    image.decoding = 'async';
    image.sizes = SHELF_SIZES;
    image.src = collection.cover.url;
    image.addEventListener('load', () => link.classList.add('loaded'), { once: true });
    link.append(image);
  }
  const title = document.createElement('span');
  title.className = 'cover-title';
  title.textContent = collection.name;
  // Spelled out: a bare number in the corner read as a duration.
  const badge = document.createElement('span');
  badge.className = 'cover-duration cover-count';
  badge.textContent = `${count} ${count === 1 ? 'post' : 'posts'}`;
  link.append(title, badge);
  cell.append(link);
  return cell;
}

/** The row, or null when there is no collection to show. */
export function createCollectionsRow(collections) {
  if (!collections?.length) return null;
  const section = document.createElement('section');
  section.className = 'shelf collections-shelf';
  section.dataset.shelfId = 'collections';
  const bar = document.createElement('div');
  bar.className = 'shelf-bar';
  const heading = document.createElement('h2');
  heading.className = 'shelf-title';
  heading.id = 'collections-title';
  heading.textContent = 'Collections';
  bar.append(heading);
  const row = document.createElement('ul');
  row.className = 'shelf-row';
  row.setAttribute('aria-labelledby', 'collections-title');
  row.append(...collections.map(card));
  section.append(bar, row);
  return section;
}
