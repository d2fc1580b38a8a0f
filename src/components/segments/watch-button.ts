import { signedInNoted } from './signed-in-note.ts';
import { getJson } from './api-client.ts';
import { byId } from '../dom/by-id.ts';
import { el } from './dom.ts';

interface Me {
  readonly watchlist: readonly { readonly segment_id: string }[];
}

/**
 * "Watch this segment": a signed-in rider's watch button (the settings API's
 * `/api/rider/watchlist`, the same rules as the MCP tool watch_segment); a
 * visitor who is not signed in gets a sign-in link that comes back here.
 */
export async function startWatchButton(segmentId: string, segmentName: string): Promise<void> {
  const box = byId('segment-watch');
  const status = byId('segment-watch-status');
  // As the top menu: a browser with no sign-in noted asks the server nothing; get-session answers null
  // without a session (no 401 in the console), and only a rider's page asks for /me.
  const session = signedInNoted()
    ? await getJson<{ user?: unknown } | null>('/api/auth/get-session')
    : undefined;
  const me = session?.ok && session.body?.user ? await getJson<Me>('/api/rider/me') : undefined;
  if (!me?.ok) {
    const back = `/login?return=${encodeURIComponent(location.pathname)}`;
    box.replaceChildren(
      el(
        'p',
        {},
        el('a', { href: back, text: 'Sign in' }),
        ' to watch this segment and get an alert when a tailwind is forecast.',
      ),
    );
    box.hidden = false;
    return;
  }
  let watching = me.body.watchlist.some((entry) => entry.segment_id === segmentId);
  const button = el('button', { attrs: { type: 'button', 'aria-pressed': String(watching) } });
  const label = () => {
    button.textContent = watching ? 'Stop watching' : 'Watch this segment';
    button.setAttribute('aria-pressed', String(watching));
  };
  label();
  button.addEventListener('click', () => {
    void (async () => {
      button.disabled = true;
      status.textContent = watching ? 'Removing…' : 'Adding…';
      const path = watching ? '/api/rider/watchlist/remove' : '/api/rider/watchlist';
      const answer = await getJson<{ watching: boolean }>(path, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ segment_id: segmentId }),
      });
      button.disabled = false;
      if (!answer.ok) {
        status.textContent = `${answer.problem.detail} ${answer.problem.hint}`.trim();
        return;
      }
      watching = answer.body.watching;
      label();
      status.textContent = watching
        ? `${segmentName} is on your watchlist: alerts are on (settings page for the threshold).`
        : `${segmentName} is no longer watched.`;
    })();
  });
  box.replaceChildren(button);
  box.hidden = false;
}
