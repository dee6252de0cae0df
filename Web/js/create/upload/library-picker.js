// Which library an upload goes to: a picker shown only when the person may see more than one
// library (GET /api/v1/libraries), set at first to the library chosen in Profile
// (state/library.js). Its id travels as the tus metadata `library`; without a choice the
// server puts the upload in the person's first library.
import { api } from '../../api.js';
import { currentLibrary } from '../../state/library.js';

export function startLibraryPicker(fields) {
  const field = fields.querySelector('#upload-library-field');
  const select = fields.querySelector('select[name=library]');
  let shown = false;

  api.libraries().then(({ libraries = [] } = {}) => {
    if (libraries.length < 2) return;
    select.replaceChildren(...libraries.map((library) => new Option(library.name, String(library.id))));
    const chosen = currentLibrary();
    const known = libraries.some((library) => String(library.id) === String(chosen));
    select.value = known ? String(chosen) : String(libraries[0].id);
    field.hidden = false;
    shown = true;
  }).catch(() => { /* no picker: the server's default library */ });

  return {
    /** The library id for the next upload's metadata, or null for the server's default. */
    value: () => (shown && select.value ? select.value : null),
  };
}
