/**
 * What each OAuth scope lets an assistant do, in the rider's words: shown on
 * the consent page and beside each connected assistant in settings.
 */
const LABELS: Readonly<Record<string, string>> = {
  'rider:read': 'See your watched segments, personal records, tailwind windows and alerts',
  'rider:write': 'Change your watched segments, personal records and alert settings',
  offline_access: 'Stay connected until you disconnect it, without asking you again',
};

/** The sentence for a scope; an unknown scope is shown as it is. */
export function scopeLabel(scope: string): string {
  return LABELS[scope] ?? scope;
}
