import { hasProAccess } from '../../core/rider-rules.ts';
import { findRiderById } from '../../store/repositories/riders.ts';
import type { ToolContext } from '../context.ts';

/**
 * Whether the caller of a public tool gets its Pro details: only a signed-in
 * rider with Pro access (paid or trial). Anonymous callers never do, and an
 * unknown rider is treated as anonymous rather than failing a public tool.
 */
export async function callerHasProAccess(context: ToolContext): Promise<boolean> {
  if (context.caller.kind !== 'rider' || !context.store) return false;
  const rider = await findRiderById(context.store.db, context.caller.riderId);
  return rider !== undefined && hasProAccess(rider, Math.floor(context.now() / 1000));
}
