// The upload screen: pick or drop files; each becomes a resumable upload row with the post
// details, and the choice of a post or the person's story, as they were when it was added.
import { discoverServer } from '../tus/tus-server.js';
import { pendingUploads } from '../tus/resume-store.js';
import { readPostFields } from '../post-fields.js';
import { addUploadRow } from './upload-row.js';
import { startLibraryPicker } from './library-picker.js';
import { renderDestinationPicker, destinationMetadata, initialDestination } from '../destination.js';

export function startUploadScreen({ chunkSize, me } = {}) {
  const input = document.getElementById('file-input');
  const zone = document.getElementById('drop-zone');
  const list = document.getElementById('upload-list');
  const fields = document.getElementById('upload-fields');
  const notice = document.getElementById('upload-unavailable');
  const libraryPicker = startLibraryPicker(fields);
  const destination = renderDestinationPicker(document.getElementById('upload-destination'), {
    name: 'upload-destination', fields, initial: initialDestination(),
  });

  const add = (files) => {
    const story = destination.value() === 'story';
    const { description, tags: typed } = readPostFields(fields);
    const tags = story ? [] : typed;   // a story has no tags (its field is hidden)
    const library = libraryPicker.value();
    for (const file of files) {
      addUploadRow(list, {
        file, tags, chunkSize, story: story ? { username: me.name } : null,
        metadata: {
          filename: file.name, filetype: file.type || 'application/octet-stream', description, tags: tags.join(','),
          filter: 'none', ...(library ? { library } : {}), ...destinationMetadata(destination.value()),
        },
      });
    }
  };

  input.addEventListener('change', () => {
    add([...input.files]);
    input.value = '';
  });
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    add([...(event.dataTransfer?.files ?? [])]);
  });

  // After a reload the files themselves are gone from the page; picking the same file again
  // finds its fingerprint and continues from the server's offset.
  const unfinished = pendingUploads().map((key) => key.split('|')[1]).filter(Boolean);
  if (unfinished.length) {
    notice.textContent = `Unfinished: ${unfinished.join(', ')}. Choose the same file again to continue where it stopped.`;
    notice.hidden = false;
  }

  discoverServer().catch((error) => {
    notice.textContent = error.message;
    notice.hidden = false;
    zone.classList.add('unavailable');
    input.disabled = true;
  });
}
