/**
 * Escapes text for HTML element content and double-quoted attribute values:
 * every name that reaches a mail's HTML part (a segment's title, the
 * rider's own segment names, an address) goes through here, so markup in
 * it is shown as text and never parsed. Five characters are enough for
 * those two contexts (no unquoted attributes, no script or style content).
 */
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
