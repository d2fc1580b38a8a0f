import type { Cell } from '../../../core/forecast-cell.ts';
import { ShownError } from './shown-error.ts';
import { readWindAnswer, type WindAnswer } from './wind-answer.ts';

/**
 * Asks `GET /v1/wind` for each cell of a route: only the cell centres
 * (already snapped to the forecast grid) leave the browser, never the route.
 * At most {@link PARALLEL_REQUESTS} requests are in flight, so a 300 km
 * route (up to 60 cells) does not burst past the API's per-address limit;
 * the browser's cache and the server's per-cell cache make a second look
 * at the same route cheap.
 */

/** Requests in flight at once: a few, as browsers allow about six per host. */
export const PARALLEL_REQUESTS = 4;

/** Why the forecast could not be read is a `ShownError`: one sentence a rider acts on. */

function failureSentence(status: number): string {
  if (status === 429)
    return 'The forecast service has had too many requests from this address just now; try again in a minute.';
  if (status === 503) return 'The forecast service is unavailable right now; try again in a few minutes.';
  return `The forecast service answered with an error (HTTP ${status}); try again later.`;
}

async function fetchCell(cell: Cell, signal: AbortSignal): Promise<WindAnswer> {
  const url = `/v1/wind?lat=${cell.center.lat}&lon=${cell.center.lon}`;
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { accept: 'application/json' } });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ShownError('The forecast could not be reached: check the connection and try again.');
  }
  if (!response.ok) throw new ShownError(failureSentence(response.status));
  try {
    return readWindAnswer(await response.json());
  } catch (error) {
    const detail = error instanceof ShownError ? error.message : 'it is not JSON';
    throw new ShownError(`The forecast answer could not be read (${detail}); try again later.`);
  }
}

/**
 * The answers for `cells`, in their order; the first failure stops the rest
 * (one sentence is enough) and rejects with a `ShownError`.
 */
export async function fetchCells(cells: readonly Cell[], signal: AbortSignal): Promise<WindAnswer[]> {
  const answers: WindAnswer[] = new Array<WindAnswer>(cells.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cells.length && !signal.aborted) {
      const i = next++;
      answers[i] = await fetchCell(cells[i] as Cell, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_REQUESTS, cells.length) }, worker));
  return answers;
}
