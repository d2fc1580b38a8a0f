/**
 * The page a rider's browser lands on when the authorization server refused
 * the assistant before any sign-in (see src/auth/client-refusal.ts). The
 * sentence shown is always one of ours, picked by the reason code; the
 * assistant's ID and the server's own message are shown as plain text only.
 */
import {
  REFUSAL_MESSAGES,
  REFUSAL_REASONS,
  refusalReasonOf,
  type RefusalReason,
} from '../../auth/client-refusal.ts';
import { byId } from '../dom/by-id.ts';

function isReason(value: string | null): value is RefusalReason {
  return REFUSAL_REASONS.some((reason) => reason === value);
}

export function showRefusal(): void {
  const params = new URLSearchParams(location.search);
  const error = params.get('error') ?? '';
  const description = params.get('error_description') ?? '';
  const given = params.get('reason');
  const reason: RefusalReason = isReason(given)
    ? given
    : error
      ? refusalReasonOf(error, description)
      : 'refused';
  byId('refusal-message').textContent = REFUSAL_MESSAGES[reason];
  const clientId = params.get('client_id');
  if (clientId) {
    byId('refusal-client-id').textContent = clientId;
    byId('refusal-client').hidden = false;
  }
  if (error) {
    byId('refusal-error').textContent = error;
    byId('refusal-description').textContent = description || '(no description)';
    byId('refusal-details').hidden = false;
  }
}
