import type { ApiError } from '../core/problems.ts';
import { refusal } from '../http/json-answer.ts';
import { readBoundedText } from '../http/bounded-body.ts';

/**
 * The JSON body of a settings POST, read to at most `max` bytes, or the
 * refusal that says precisely what is wrong with it (type, size, syntax).
 */
export async function readJson(
  request: Request,
  max: number,
  tooLarge = `The request body is larger than ${max} bytes.`,
): Promise<{ json: unknown } | ApiError> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return refusal('unsupported_media_type', 'Send the body as application/json.');
  }
  const text = await readBoundedText(request, max);
  if (text === undefined) {
    return refusal('payload_too_large', tooLarge);
  }
  try {
    return { json: JSON.parse(text) as unknown };
  } catch {
    return refusal('invalid_request', 'The request body is not valid JSON.');
  }
}
