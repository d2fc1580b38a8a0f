import type { FindTailwindSegmentsOutput } from '../schemas/find.ts';
import { ANSWER_BUDGET } from '../size-budgets.ts';

/**
 * What the JSON-RPC envelope (and SSE framing) adds around an answer's two
 * blocks, with room to spare: 115 bytes in the 2025 protocol and 234 in
 * 2026-07-28, measured as served; tests/mcp/size-budgets.test.ts holds the
 * whole answer to its budget.
 */
const ENVELOPE_BYTES = 300;

/** The summary and the data as the assistant receives them, less the envelope. */
function answerBytes(data: FindTailwindSegmentsOutput, summary: string): number {
  return Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(summary));
}

/**
 * Keeps a find answer within its budget when a busy place adds to it: a
 * name shared by many places (its alternatives) with no segment near (the
 * nearest beyond the radius and the eight headings) can pass 8 KB. The
 * least useful parts go first, one item at a time: alternatives beyond the
 * first two (the assistant can still ask "Name, CC") and the farthest of
 * the nearest segments beyond the radius, down to one; for an ambiguous
 * name the segments go first, since the assistant is to ask which place. The headings and the
 * segments in the radius are never cut. `summarize` builds the text from
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
  const fewerAlternatives = (): FindTailwindSegmentsOutput | undefined => {
    const { alternatives } = fitted.place;
    return alternatives.length > 2
      ? { ...fitted, place: { ...fitted.place, alternatives: alternatives.slice(0, -1) } }
      : undefined;
  };
  const fewerBeyond = (): FindTailwindSegmentsOutput | undefined => {
    const beyond = fitted.nearest_beyond_radius;
    return beyond && beyond.length > 1
      ? { ...fitted, nearest_beyond_radius: beyond.slice(0, -1) }
      : undefined;
  };
  // An ambiguous name keeps its alternatives longest: the assistant is to ask which place is meant.
  const trimmed = () =>
    fitted.place.ambiguous ? (fewerBeyond() ?? fewerAlternatives()) : (fewerAlternatives() ?? fewerBeyond());
  while (answerBytes(fitted, summary) > limit) {
    const next = trimmed();
    if (!next) break;
    fitted = next;
    summary = summarize(fitted);
  }
  return { data: fitted, summary };
}
