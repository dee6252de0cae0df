// Boot of the create page: signed in → the tabs; 401 → the same sign-in form as the feed.
// Each screen starts once, when first shown; the record screen turns the camera off on leave.
import { api } from '../api.js';
import { showLogin } from '../auth/login.js';
import { setLibraryUser } from '../state/library.js';
import { startTabs } from './tabs.js';
import { startUploadScreen } from './upload/upload-screen.js';
import { startRecordScreen } from './record/record-screen.js';
import { startGenerateScreen } from './generate/generate-screen.js';

// ?chunk=BYTES lets tests (and people on very bad networks) use smaller PATCH requests.
const requestedChunk = Number(new URLSearchParams(location.search).get('chunk'));
const chunkSize = Number.isInteger(requestedChunk) && requestedChunk >= 64 * 1024 ? requestedChunk : 2 * 1024 * 1024;

let me = null;   // GET /api/v1/me ({ id, name, role }): a story is followed into stories/{name}
const starters = {
  upload: () => startUploadScreen({ chunkSize, me }),
  record: () => startRecordScreen({ chunkSize, me }),
  generate: () => startGenerateScreen(),
};
const screens = new Map();

function openCreate() {
  document.getElementById('create-view').hidden = false;
  startTabs({
    onEnter: (name) => { if (!screens.has(name)) screens.set(name, starters[name]()); },
    onLeave: (name) => screens.get(name)?.leave?.(),
  });
}

async function boot() {
  const status = document.getElementById('boot-status');
  status.hidden = false;
  status.querySelector('p').textContent = 'Loading…';
  status.querySelector('button').hidden = true;
  try {
    me = await api.me();
    setLibraryUser(me?.id);   // the library chosen in Profile is per user
    status.hidden = true;
    openCreate();
  } catch (error) {
    if (error.isUnauthorized) { status.hidden = true; showLogin({ onSignedIn: () => boot() }); return; }
    status.querySelector('p').textContent = error.isOffline ? 'You are offline. Try again when the connection is back.' : error.message;
    status.querySelector('button').hidden = false;
  }
}

document.getElementById('boot-retry').addEventListener('click', boot);
boot();
