/** A run of a description: plain text, or a name to set as code. */
export interface TextRun {
  readonly text: string;
  readonly code: boolean;
}

/**
 * Splits a schema description at its backticks. The descriptions are
 * Markdown for the OpenAPI document (`calm`, `{docs_url}`), which renders
 * them; the docs pages are HTML, so each backticked span becomes a `<code>`
 * there instead of showing its backticks. An unpaired backtick stays as text.
 */
export function inlineCodeRuns(description: string): TextRun[] {
  const parts = description.split('`');
  if (parts.length % 2 === 0) return description === '' ? [] : [{ text: description, code: false }];
  return parts.map((text, index) => ({ text, code: index % 2 === 1 })).filter((run) => run.text !== '');
}
