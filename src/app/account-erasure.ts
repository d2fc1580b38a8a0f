/**
 * What happens before better-auth deletes a rider's user row: a running
 * Stripe subscription is cancelled (`src/billing`), then every row of the
 * rider is erased in one transaction (`src/store`). Both surfaces are below
 * or beside the sign-in service, so they meet here. A cancellation that
 * fails stops the deletion with better-auth's own error shape, carrying a
 * sentence for the rider; nothing has been erased then.
 */
import { APIError } from 'better-auth/api';
import type { BillingService } from '../billing/checkout.ts';
import { cancelBeforeErasure, CancellationError } from '../billing/cancel-on-erasure.ts';
import type { Store } from '../store/database.ts';
import { eraseRider } from '../store/repositories/rider-data.ts';

export function accountErasure(billing: BillingService | undefined, store: Pick<Store, 'db'>) {
  return async (riderId: string): Promise<void> => {
    try {
      await cancelBeforeErasure(billing, store.db, riderId);
    } catch (error) {
      if (error instanceof CancellationError) throw new APIError('BAD_GATEWAY', { message: error.message });
      throw error;
    }
    await eraseRider(store.db, riderId);
  };
}
