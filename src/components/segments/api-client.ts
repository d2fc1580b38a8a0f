/**
 * The segment pages' one way to ask the API: JSON on success, and on failure
 * the problem document's own words (title, detail, hint), or a sentence for
 * a network failure, never an exception for the page to forget to catch.
 */

export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly hint: string;
}

export type Fetched<T> =
  { readonly ok: true; readonly body: T } | { readonly ok: false; readonly problem: Problem };

export async function getJson<T>(url: string, init: RequestInit = {}): Promise<Fetched<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      credentials: 'same-origin',
      ...init,
    });
  } catch {
    return {
      ok: false,
      problem: {
        status: 0,
        code: 'network',
        title: 'No connection',
        detail: 'The wind-on-segment API could not be reached.',
        hint: 'Check your connection and try again.',
      },
    };
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok && body !== undefined) return { ok: true, body: body as T };
  const fields = (body ?? {}) as Partial<Record<keyof Problem, unknown>>;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' && value ? value : fallback);
  return {
    ok: false,
    problem: {
      status: response.status,
      code: text(fields.code, `http_${response.status}`),
      title: text(fields.title, response.statusText || 'Error'),
      detail: text(fields.detail, `The API answered ${response.status}.`),
      hint: text(fields.hint, ''),
    },
  };
}

/** Shows a problem in an element as its title, detail and hint, each its own line. */
export function showProblem(target: HTMLElement, problem: Problem): void {
  const title = document.createElement('strong');
  title.textContent = problem.title;
  const detail = document.createElement('span');
  detail.textContent = ` ${problem.detail}`;
  target.replaceChildren(title, detail);
  if (problem.hint) {
    const hint = document.createElement('span');
    hint.className = 'problem-hint';
    hint.textContent = ` ${problem.hint}`;
    target.append(hint);
  }
  target.hidden = false;
}
