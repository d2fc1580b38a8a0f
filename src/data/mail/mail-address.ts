/**
 * The one rule for an address a message may be sent to. better-auth already
 * refuses malformed addresses at sign-up, but mail is where a smuggled line
 * break becomes a header (`Bcc:`) and a smuggled `<` a second recipient, so
 * the mailer checks again at the last step, whatever stored the address: a
 * bare `local@domain` of printable ASCII, no spaces, no angle brackets, no
 * quotes, no commas, at most 254 characters (RFC 5321's path limit less the
 * brackets).
 */

/** Longest address accepted (RFC 5321 §4.5.3.1.3: a path of 256 octets with its angle brackets). */
export const MAIL_ADDRESS_MAX = 254;

const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

/** True for an address the mailer will put in a `To` header as it is. */
export function isSendableAddress(address: string): boolean {
  return address.length <= MAIL_ADDRESS_MAX && ADDRESS.test(address);
}

/** C0 controls (line breaks included), DEL, NEL and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
export const LINE_BREAKING = /[\u0000-\u001f\u007f\u0085\u2028\u2029]+/g;

/**
 * Text for a header (a subject): control characters, line breaks included,
 * become spaces, runs of spaces one, so nothing in a segment name or a
 * rider's text can start a header of its own. The mail library then encodes
 * what is not ASCII (RFC 2047).
 */
export function headerText(text: string): string {
  return text.replace(LINE_BREAKING, ' ').replace(/ {2,}/g, ' ').trim();
}
