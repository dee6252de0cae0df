// Browse's filter panel (a modal <dialog>: Escape closes it, focus stays inside): tags to
// include or exclude, uploader, kind, duration range, favorites only, minimum rating, seen.
// Every change rewrites the query at once (`onChange(query)`); the grid follows the URL.
import { KINDS, splitList, withParam, withoutFilters } from './browse-query.js';
import { tapVerb, tapWord } from '../ui/pointer-words.js';

const TAG_STATES = ['off', 'include', 'exclude'];

function element(tag, props = {}, children = []) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function fieldset(legend, children) {
  return element('fieldset', { className: 'filter-group' }, [element('legend', { textContent: legend }), ...children]);
}

function tagButton(tag, state) {
  const button = element('button', { type: 'button', className: 'tag-toggle' });
  button.dataset.tag = tag.name;
  button.dataset.state = state;
  const mark = state === 'include' ? '✓ ' : state === 'exclude' ? '− ' : '';
  button.textContent = `${mark}#${tag.name}`;
  button.setAttribute('aria-label', `#${tag.name}: ${state === 'off' ? 'any' : state === 'include' ? 'included' : 'excluded'}`);
  button.title = `${tapWord()} to include, again to exclude, again to clear`;
  return button;
}

/** Builds the panel; `open(query)` shows it for the current URL's query. */
export function createFilterPanel({ api, onChange }) {
  const dialog = element('dialog', { className: 'filter-panel', id: 'filter-panel' });
  dialog.setAttribute('aria-labelledby', 'filter-title');
  let query = new URLSearchParams();
  let tags = null;

  const change = (next) => { query = next; onChange(next); paint(); };

  async function loadTags() {
    if (tags) return;
    try { tags = (await api.tags()).items ?? []; } catch { tags = []; }
    paint();
  }

  function paint() {
    const included = splitList(query.get('tags'));
    const excluded = splitList(query.get('exclude_tags'));
    const kinds = splitList(query.get('kind'));

    const tagList = element('div', { className: 'tag-toggles' });
    if (tags === null) tagList.append(element('p', { className: 'hint', textContent: 'Loading tags…' }));
    else if (tags.length === 0) tagList.append(element('p', { className: 'hint', textContent: 'No tags yet.' }));
    for (const tag of tags ?? []) {
      const state = included.includes(tag.name) ? 'include' : excluded.includes(tag.name) ? 'exclude' : 'off';
      const button = tagButton(tag, state);
      button.addEventListener('click', () => {
        const nextState = TAG_STATES[(TAG_STATES.indexOf(state) + 1) % TAG_STATES.length];
        const keep = (list) => list.filter((name) => name !== tag.name);
        let next = withParam(query, 'tags', nextState === 'include' ? [...keep(included), tag.name] : keep(included));
        next = withParam(next, 'exclude_tags', nextState === 'exclude' ? [...keep(excluded), tag.name] : keep(excluded));
        change(next);
        requestAnimationFrame(() => dialog.querySelector(`.tag-toggle[data-tag="${CSS.escape(tag.name)}"]`)?.focus());
      });
      tagList.append(button);
    }

    const uploader = element('input', { name: 'uploader', value: query.get('uploader') ?? '', placeholder: 'name, @username', autocapitalize: 'none', spellcheck: false });
    let typing = 0;
    uploader.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => { query = withParam(query, 'uploader', uploader.value.trim()); onChange(query); }, 300);
    });

    const kindBoxes = KINDS.map((kind) => {
      const box = element('input', { type: 'checkbox', name: 'kind', value: kind.value, checked: kinds.includes(kind.value) });
      box.addEventListener('change', () => {
        const chosen = [...dialog.querySelectorAll('input[name=kind]:checked')].map((input) => input.value);
        change(withParam(query, 'kind', chosen));
      });
      return element('label', { className: 'check' }, [box, ` ${kind.label}`]);
    });

    const number = (name, placeholder) => {
      const input = element('input', { type: 'number', name, min: 0, step: 1, inputMode: 'numeric', placeholder, value: query.get(name) ?? '' });
      input.addEventListener('change', () => change(withParam(query, name, input.value && Number(input.value) >= 0 ? String(Math.round(Number(input.value))) : '')));
      return element('label', {}, [`${placeholder} `, input]);
    };

    const favorites = element('input', { type: 'checkbox', name: 'favorites', checked: query.get('favorites') === 'true' });
    favorites.addEventListener('change', () => change(withParam(query, 'favorites', favorites.checked ? 'true' : '')));

    const rating = element('select', { name: 'min_rating' });
    rating.append(element('option', { value: '', textContent: 'Any' }));
    for (let stars = 1; stars <= 5; stars += 1) rating.append(element('option', { value: String(stars), textContent: `${'★'.repeat(stars)} or more` }));
    rating.value = query.get('min_rating') ?? '';
    rating.addEventListener('change', () => change(withParam(query, 'min_rating', rating.value)));

    const seenChoices = [['', 'Any'], ['false', 'Unseen'], ['true', 'Seen']].map(([value, label]) => {
      const radio = element('input', { type: 'radio', name: 'seen', value, checked: (query.get('seen') ?? '') === value });
      radio.addEventListener('change', () => change(withParam(query, 'seen', value)));
      return element('label', { className: 'check' }, [radio, ` ${label}`]);
    });

    const clear = element('button', { type: 'button', className: 'secondary', textContent: 'Clear all' });
    clear.addEventListener('click', () => change(withoutFilters(query)));
    const close = element('button', { type: 'button', className: 'primary', textContent: 'Show results' });
    close.addEventListener('click', () => dialog.close());

    // Repainting replaces the controls: the one that had focus gets it back.
    const active = document.activeElement;
    const focused = active?.name ? `[name="${CSS.escape(active.name)}"]${active.value && active.type !== 'number' && active.type !== 'text' && active.tagName !== 'SELECT' && active.name !== 'uploader' ? `[value="${CSS.escape(active.value)}"]` : ''}` : null;
    dialog.replaceChildren(
      element('h2', { id: 'filter-title', textContent: 'Filters', tabIndex: -1 }),
      element('div', { className: 'filter-body' }, [
        fieldset(`Tags (${tapVerb()}: include, again: exclude)`, [tagList]),
        fieldset('Uploader', [uploader]),
        fieldset('Kind', kindBoxes),
        fieldset('Duration (seconds)', [element('div', { className: 'range' }, [number('min_duration', 'From'), number('max_duration', 'To')])]),
        fieldset('Rating', [rating]),
        fieldset('Seen by you', seenChoices),
        fieldset('Favorites', [element('label', { className: 'check' }, [favorites, ' Only my favorites'])]),
      ]),
      element('div', { className: 'filter-actions' }, [clear, close]),
    );
    if (focused && dialog.open) dialog.querySelector(focused)?.focus();
  }

  dialog.addEventListener('click', (event) => { if (event.target === dialog) dialog.close(); });   // the backdrop

  return {
    element: dialog,
    open(current) {
      query = new URLSearchParams(current);
      paint();
      dialog.showModal();
      // Focus on the panel's title, not its first field: no keyboard popping up on a phone.
      dialog.querySelector('h2')?.focus();
      loadTags();
    },
    close() { if (dialog.open) dialog.close(); },
  };
}
