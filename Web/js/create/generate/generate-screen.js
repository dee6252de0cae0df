// Generate: prompt, style, orientation → a private preview → Publish, Discard or Regenerate
// with the edited prompt. The provider list comes from the server and names providers as they
// are (the local one renders a text card with ffmpeg; nothing leaves the server).
import { createApi } from '../create-api.js';
import { pollGeneration } from './generation-poller.js';
import { followPublication } from '../job-follower.js';
import { readPostFields, renderPublished } from '../post-fields.js';

export function startGenerateScreen() {
  const $ = (id) => document.getElementById(id);
  const form = $('generate-form');
  const errorBox = $('generate-error');
  const panel = $('generation');
  const status = $('generation-status');
  const bar = $('generation-progress');
  const video = $('generation-preview');
  const actions = $('generation-actions');
  const published = $('generation-published');
  const buttons = ['generation-publish', 'generation-discard', 'generation-regenerate', 'generate-submit'].map($);
  let current = null;
  let providers = [];

  const busy = (flag) => { for (const button of buttons) button.disabled = flag; };

  const showError = (error) => {
    let text = error.message;
    if (error.code === 'quota_exceeded') text = `Daily generation limit reached: ${error.message}.`;
    else if (error.code === 'rate_limited') text = `Too many generations in a row: ${error.message}.`;
    else if (error.isOffline) text = 'The server could not be reached. Try again when you are back online.';
    errorBox.textContent = text;
    errorBox.dataset.code = error.code ?? '';
    errorBox.hidden = false;
  };

  const describeProvider = () => {
    const provider = providers.find((item) => item.id === form.elements.provider.value);
    form.elements.provider.title = provider?.name ?? '';   // the select may show it cut short
    $('provider-note').textContent = !provider ? '' : provider.local
      ? 'Runs on this server: nothing you type is sent anywhere else.'
      : `${provider.name} is an external service: your prompt is sent to it.`;
  };

  const loadProviders = async () => {
    try {
      providers = (await createApi.providers()).items;
    } catch (error) {
      showError(error);
      return;
    }
    const providerSelect = form.elements.provider;
    providerSelect.replaceChildren(...providers.map((provider) => {
      const option = new Option(provider.name, provider.id, provider.is_default, provider.is_default);
      option.dataset.local = String(provider.local);
      return option;
    }));
    const styles = providers[0]?.styles ?? [];
    form.elements.style.replaceChildren(...styles.map((style) => new Option(style[0].toUpperCase() + style.slice(1), style)));
    describeProvider();
  };

  const follow = async (generation) => {
    current = generation;
    panel.hidden = false;
    panel.dataset.state = generation.state;
    published.hidden = true;
    actions.hidden = true;
    video.hidden = true;
    video.removeAttribute('src');
    video.load();   // drops the previous preview's frames
    busy(true);
    const final = await pollGeneration(generation.id, {
      onUpdate: (update) => {
        current = update;
        bar.value = update.progress ?? 0;
        status.textContent = update.state === 'queued' ? `Queued with ${update.provider_name}…`
          : update.state === 'running' ? `Generating with ${update.provider_name}: ${Math.floor((update.progress ?? 0) * 100)}%` : status.textContent;
      },
    }).catch((error) => { showError(error); return null; });
    busy(false);
    if (!final) return;
    panel.dataset.state = final.state;
    if (final.state === 'ready' && final.preview_url) {
      bar.value = 1;
      status.textContent = `Ready: a private preview only you can see (${final.provider_name}, ${final.style}, ${final.seconds} s).`;
      video.src = final.preview_url;
      video.hidden = false;
      video.play().catch(() => {});
      actions.hidden = false;
    } else if (final.state === 'failed') {
      status.textContent = `Generation failed: ${final.failure_reason ?? 'no reason given'}`;
    } else {
      status.textContent = `This generation is ${final.state}.`;
    }
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    errorBox.hidden = true;
    busy(true);
    try {
      await follow(await createApi.generate({
        prompt: form.elements.prompt.value.trim(), style: form.elements.style.value,
        orientation: form.elements.orientation.value, provider: form.elements.provider.value || undefined,
      }));
    } catch (error) {
      showError(error);
    } finally {
      busy(false);
    }
  });
  form.elements.provider.addEventListener('change', describeProvider);

  $('generation-regenerate').addEventListener('click', async () => {
    if (!current) return;
    errorBox.hidden = true;
    busy(true);
    try {
      await follow(await createApi.regenerate(current.id, { prompt: form.elements.prompt.value.trim(), style: form.elements.style.value }));
    } catch (error) {
      showError(error);
    } finally {
      busy(false);
    }
  });

  $('generation-discard').addEventListener('click', async () => {
    if (!current) return;
    busy(true);
    try {
      await createApi.discardGeneration(current.id);
      video.pause();
      video.removeAttribute('src');
      video.hidden = true;
      actions.hidden = true;
      panel.dataset.state = 'discarded';
      status.textContent = 'Discarded. Edit the prompt and generate again.';
      form.elements.prompt.focus();
    } catch (error) {
      showError(error);
    } finally {
      busy(false);
    }
  });

  $('generation-publish').addEventListener('click', async () => {
    if (!current) return;
    const { description, tags } = readPostFields($('generate-fields'));
    busy(true);
    errorBox.hidden = true;
    try {
      const result = await createApi.publishGeneration(current.id, { description: description || undefined, tags });
      video.pause();
      actions.hidden = true;
      panel.dataset.state = 'processing';
      status.textContent = 'Publishing: processing the clip…';
      bar.value = 0;
      const outcome = await followPublication({
        postId: result.post_id, jobIds: result.job_ids,
        onUpdate: (job) => {
          bar.value = job.progress ?? 0;
          status.textContent = `Publishing: processing ${Math.floor(bar.value * 100)}%`;
        },
      });
      if (outcome.ok) {
        bar.value = 1;
        panel.dataset.state = 'published';
        status.textContent = 'Published.';
        renderPublished(published, { postId: outcome.postId, tags: tags.length ? tags : ['generated'] });
      } else {
        panel.dataset.state = 'failed';
        status.textContent = `Publishing failed: ${outcome.reason}`;
      }
    } catch (error) {
      showError(error);
      actions.hidden = false;
    } finally {
      busy(false);
    }
  });

  loadProviders();
}
