import { calculate, FIELD_NAMES, type Fields, type Problem, type Result } from './outcome.ts';
import { byId } from '../dom/by-id.ts';

function readFields(form: HTMLFormElement): Fields {
  const data = new FormData(form);
  return Object.fromEntries(FIELD_NAMES.map((name) => [name, String(data.get(name) ?? '')]));
}

/** Shows each field's own error (or clears it), in the form's words. */
function markFields(invalid: ReadonlyMap<string, string>): void {
  for (const name of FIELD_NAMES) {
    const input = byId<HTMLInputElement>(name);
    const message = byId(`${name}-error`);
    const hint = invalid.get(name);
    message.hidden = hint === undefined;
    message.textContent = hint ?? '';
    if (hint === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
}

const oneDecimal = (value: number) => value.toFixed(1);

function showResult(result: Result): void {
  byId('result').dataset['state'] = 'result';
  byId('problem').hidden = true;
  const effect = byId('effect');
  effect.textContent = result.effect;
  effect.dataset['effect'] = result.effect;
  byId('signed').textContent = oneDecimal(result.signedKmh);
  byId('crosswind').textContent = oneDecimal(result.crosswindKmh);
  byId('bearing-used').textContent = String(result.bearingDeg);
  byId('bearing-compass').textContent = result.compass;
  byId('bearing-source').textContent =
    result.bearingSource === 'coordinates' ? '(from the coordinates)' : '(entered)';
  const towards = (result.directionDeg + 180) % 360;
  byId('travel-arrow').setAttribute('transform', `rotate(${result.bearingDeg})`);
  byId('wind-arrow').setAttribute('transform', `rotate(${towards})`);
  byId('compass-title').textContent =
    `Travel towards ${result.bearingDeg}° (${result.compass}); the wind comes from ` +
    `${result.directionDeg}° and blows towards ${towards}°.`;
}

function showProblem(problem: Problem): void {
  byId('result').dataset['state'] = 'problem';
  const message = byId('problem');
  message.hidden = false;
  message.textContent = problem.message;
}

function showApiLine(query: string): void {
  const path = `/v1/tailwind?${query}`;
  const link = byId<HTMLAnchorElement>('api-url');
  link.href = path;
  link.textContent = `${location.origin}${path}`;
  byId('curl').textContent = `curl '${location.origin}${path}'`;
}

/** Recomputes on every keystroke, keeps the page URL shareable, and copies the curl line. */
export function startCalculator(): void {
  const form = byId<HTMLFormElement>('calculator');
  const params = new URLSearchParams(location.search);
  if (FIELD_NAMES.some((name) => params.has(name))) {
    for (const name of FIELD_NAMES) byId<HTMLInputElement>(name).value = params.get(name) ?? '';
  }

  const update = (): void => {
    const outcome = calculate(readFields(form));
    markFields(outcome.kind === 'problem' ? outcome.invalid : new Map());
    if (outcome.kind === 'result') showResult(outcome);
    else showProblem(outcome);
    showApiLine(outcome.query);
    const url = outcome.query ? `${location.pathname}?${outcome.query}` : location.pathname;
    history.replaceState(null, '', url);
  };

  form.addEventListener('input', update);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    update();
  });
  byId('copy-curl').addEventListener('click', () => {
    const status = byId('copy-status');
    navigator.clipboard.writeText(byId('curl').textContent ?? '').then(
      () => (status.textContent = 'Copied.'),
      () => (status.textContent = 'Select the line and copy it.'),
    );
  });
  update();
}
