import { failureMessage, postJson, UNREACHABLE_MESSAGE } from './auth-client.ts';

/**
 * The action of a row in a settings list (remove an own segment, disconnect
 * an assistant): the row's button is disabled while the POST is out and
 * enabled again when it fails, with the reason announced. A 404 counts as
 * done, since the thing is gone already (removed from another tab or
 * device). True when done; the caller then says so and updates the list.
 */
export async function postRowAction(
  item: HTMLLIElement,
  path: string,
  body: unknown,
  announce: (message: string) => void,
): Promise<boolean> {
  const button = item.querySelector('button');
  if (button) button.disabled = true;
  try {
    const reply = await postJson(path, body);
    if (reply.status === 200 || reply.status === 404) return true;
    if (button) button.disabled = false;
    announce(failureMessage(reply));
  } catch {
    if (button) button.disabled = false;
    announce(UNREACHABLE_MESSAGE);
  }
  return false;
}
