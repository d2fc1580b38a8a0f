import type { FindTailwindSegmentsOutput } from '../schemas/find.ts';
import { ANSWER_BUDGET } from '../size-budgets.ts';

/**
 * What the JSON-RPC envelope (and SSE framing) adds around an answer's two
 * blocks, with room to spare: 115 bytes in the 2025 protocol and 234 in
 * 2026-07-28, measured as served; tests/mcp/size-budgets.test.ts holds the
 * whole answer to its budget.
 */
const ENVELOPE_BYTES = 300;

const MIN_ALTERNATIVES = 2;
const MIN_BEYOND = 1;

const cuttable = (data: FindTailwindSegmentsOutput) => ({
  alternatives: data.place.alternatives.length > MIN_ALTERNATIVES,
  beyond: (data.nearest_beyond_radius?.length ?? 0) > MIN_BEYOND,
});

function trimmable(data: FindTailwindSegmentsOutput): boolean {
  const can = cuttable(data);
  return can.alternatives || can.beyond;
}

/**
 * One item less: the last alternative or the farthest segment beyond the
 * radius. An ambiguous name keeps its alternatives longest, since the
 * assistant is to ask which place is meant.
 */
function trimmed(data: FindTailwindSegmentsOutput): FindTailwindSegmentsOutput {
  const can = cuttable(data);
  const cutBeyond = can.beyond && (data.place.ambiguous || !can.alternatives);
  if (cutBeyond) return { ...data, nearest_beyond_radius: data.nearest_beyond_radius?.slice(0, -1) ?? null };
  return { ...data, place: { ...data.place, alternatives: data.place.alternatives.slice(0, -1) } };
}

/** The summary and the data as the assistant receives them, less the envelope. */
function answerBytes(data: FindTailwindSegmentsOutput, summary: string): number {
  return Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(summary));
}

/**
 * Keeps a find answer within its budget when a busy place adds to it: a
 * name shared by many places (its alternatives) with no segment near (the
 * nearest beyond the radius and the eight headings) can pass 8 KB. The
 * least useful parts go first, one item at a time (see `trimmed`):
 * alternatives beyond the first two (the assistant can still ask "Name,
 * CC") and the farthest of the nearest segments beyond the radius, down to
 * one. The headings and the segments in the radius are never cut. `summarize` builds the text from
 * the data, so text and data stay in step. `limit` is in bytes of the two
 * blocks (the budget less the envelope).
 */
export function fitFindAnswer(
  data: FindTailwindSegmentsOutput,
  summarize: (data: FindTailwindSegmentsOutput) => string,
  limit = ANSWER_BUDGET.find_tailwind_segments - ENVELOPE_BYTES,
): { data: FindTailwindSegmentsOutput; summary: string } {
  let fitted = data;
  let summary = summarize(fitted);
  // Most answers have nothing to cut (few alternatives, segments in the radius): they are not measured.
  while (trimmable(fitted) && answerBytes(fitted, summary) > limit) {
    fitted = trimmed(fitted);
    summary = summarize(fitted);
  }
  return { data: fitted, summary };
}
