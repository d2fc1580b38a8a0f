/**
 * Where the sign-in and sign-up pages send a rider who came from a page of
 * this site (`?return=/pricing?plan=pro_monthly`): only a path on our own
 * origin, so the parameter can never send a rider to another site.
 */
export function safeReturnPath(value: string | null): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  try {
    const url = new URL(value, 'https://this.site');
    return url.origin === 'https://this.site' ? `${url.pathname}${url.search}` : undefined;
  } catch {
    return undefined;
  }
}

/** The sign-up page, coming back to `path` afterwards. */
export function signUpThenBack(path: string): string {
  return `/signup?return=${encodeURIComponent(path)}`;
}
