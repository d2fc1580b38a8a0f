/**
 * The text of whatever a step of the alert job threw, for its summary and
 * log line: an Error's message, anything else as a string. Never a stack: the
 * summary is also the cron endpoint's answer.
 */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
