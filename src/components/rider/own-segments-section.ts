/**
 * The "Your own segments" section of the settings page: pick or drop a GPX
 * or GeoJSON file, see its line and figures, name it, save it; list and
 * remove the saved ones. The file reader and the preview load only once a
 * file is picked (`own-segment-preview.ts`, a dynamic import), so the page's
 * first script stays small. The server reads the file again before storing:
 * the preview is a courtesy, never the authority.
 */
import { byId } from '../dom/by-id.ts';
import { failureMessage, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';
import type { PreviewResult } from './own-segment-preview.ts';
import { postRowAction } from './row-action.ts';
import type { Me } from './settings-view.ts';

/** Matches `OWN_SEGMENT_UPLOAD_MAX_BYTES` on the server (a test checks they agree). */
export const UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

interface Picked {
  readonly text: string;
  readonly format: 'gpx' | 'geojson';
}

let picked: Picked | undefined;
let onChange: () => void = () => undefined;

function problem(message: string): void {
  const box = byId('own-segment-error');
  box.textContent = message;
  box.hidden = message === '';
}

function announce(message: string): void {
  byId('own-segment-status').textContent = message;
}

/** "42:00", "1:02:03" or plain seconds to whole seconds; undefined when empty, NaN when unreadable. */
export function parseRecord(text: string): number | undefined {
  const value = text.trim();
  if (value === '') return undefined;
  if (!/^\d+(:\d{1,2}){0,2}$/.test(value)) return Number.NaN;
  return value.split(':').reduce((total, part) => total * 60 + Number(part), 0);
}

function resetPreview(): void {
  picked = undefined;
  byId('own-segment-preview').hidden = true;
  byId('own-segment-figure').replaceChildren();
  byId<HTMLButtonElement>('own-segment-save').disabled = true;
}

async function readFile(file: File): Promise<void> {
  resetPreview();
  problem('');
  announce('');
  if (file.size > UPLOAD_MAX_BYTES) {
    return problem(
      `${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; files of up to ${UPLOAD_MAX_BYTES / 1024 / 1024} MB are taken. Simplify the track in your route planner, or export it without sensor extensions.`,
    );
  }
  if (file.size === 0) return problem(`${file.name} is empty.`);
  const [text, preview] = await Promise.all([file.text(), import('./own-segment-preview.ts')]);
  const result: PreviewResult = preview.previewText(file.name, text);
  if (!result.ok) return problem(`${file.name}: ${result.message}`);
  picked = { text, format: result.format };
  const figures = preview.figureTexts(result.segment);
  byId('own-segment-distance').textContent = figures.distance;
  byId('own-segment-climbing').textContent = figures.climbing;
  byId('own-segment-grade').textContent = figures.grade;
  byId('own-segment-bearing').textContent = figures.bearing;
  byId('own-segment-points').textContent = `${result.segment.points.length} of ${result.segment.pointsRead}`;
  byId('own-segment-figure').replaceChildren(
    preview.previewSvg(
      result.segment,
      `The line of ${file.name}, ${figures.distance}, heading ${figures.bearing}`,
    ),
  );
  const name = byId<HTMLInputElement>('own-segment-name');
  name.value = result.segment.name ?? file.name.replace(/\.[^.]+$/, '');
  byId('own-segment-preview').hidden = false;
  byId<HTMLButtonElement>('own-segment-save').disabled = false;
  announce(`${file.name} read: ${figures.distance}. Check the name, then save.`);
}

async function save(): Promise<void> {
  if (!picked) return problem('Pick a GPX or GeoJSON file first.');
  const name = byId<HTMLInputElement>('own-segment-name').value.trim();
  if (name === '') return problem('Give the segment a name.');
  const record = parseRecord(byId<HTMLInputElement>('own-segment-record').value);
  if (Number.isNaN(record))
    return problem('Write the record as minutes:seconds (42:05) or hours:minutes:seconds.');
  const button = byId<HTMLButtonElement>('own-segment-save');
  button.disabled = true;
  problem('');
  try {
    const reply = await postJson('/api/rider/segments', {
      name,
      format: picked.format,
      text: picked.text,
      ...(record === undefined ? {} : { record_s: record }),
    });
    if (reply.status !== 201) {
      button.disabled = false;
      const pricing = reply.body?.['pricing'] === true ? ' See the pricing page for Pro.' : '';
      return problem(`${failureMessage(reply)}${pricing}`);
    }
    resetPreview();
    byId<HTMLFormElement>('own-segment-form').reset();
    announce(`${name} is saved and watched. Your assistant sees it in get_my_watchlist.`);
    onChange();
  } catch {
    button.disabled = false;
    problem(UNREACHABLE_MESSAGE);
  }
}

function remove(id: string, name: string, item: HTMLLIElement): void {
  void postRowAction(item, '/api/rider/segments/remove', { segment_id: id }, announce).then((done) => {
    if (!done) return;
    announce(`${name} is removed, with its watch.`);
    onChange();
  });
}

/** Shows the saved segments and the allowance; called with each `GET /api/rider/me`. */
export function showOwnSegments(me: Me): void {
  const { used, allowance, pro } = me.own_segment_allowance;
  const more = me.rider.pro_access ? '' : ` Pro allows up to ${pro}.`;
  byId('own-segment-allowance').textContent = `${used} of ${allowance} own segments used.${more}`;
  byId('own-segments').replaceChildren(
    ...me.own_segments.map((segment) => {
      const item = document.createElement('li');
      item.className = 'connection';
      const head = document.createElement('strong');
      head.textContent = segment.name;
      const facts = document.createElement('span');
      facts.className = 'muted';
      facts.textContent = ` ${(segment.distance_m / 1000).toFixed(2)} km, ${Math.round(segment.gain_m)} m climbing`;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button secondary';
      button.textContent = 'Remove';
      button.setAttribute('aria-label', `Remove ${segment.name}`);
      button.addEventListener('click', () => remove(segment.id, segment.name, item));
      const line = document.createElement('div');
      line.append(head, facts);
      item.append(line, button);
      return item;
    }),
  );
  byId('own-segments-empty').hidden = me.own_segments.length > 0;
}

export function startOwnSegmentsSection(reload: () => void): void {
  onChange = reload;
  const input = byId<HTMLInputElement>('own-segment-file');
  const pick = (file: File | undefined) => {
    if (file) void readFile(file).catch(() => problem('This file could not be read.'));
  };
  input.addEventListener('change', () => pick(input.files?.[0]));
  const zone = byId('own-segment-drop');
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('dragging');
    pick(event.dataTransfer?.files[0]);
  });
  byId<HTMLFormElement>('own-segment-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void save();
  });
}
