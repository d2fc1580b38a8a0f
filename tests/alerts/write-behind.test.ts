import { describe, expect, it } from 'vitest';
import { createWriteBehind } from '../../src/alerts/write-behind.ts';

/** A promise the test settles when it chooses, to see what runs while a write is pending. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('write-behind queue', () => {
  it('runs writes one after another in the order pushed, without the pusher waiting', async () => {
    const writes = createWriteBehind();
    const log: string[] = [];
    const first = gate();
    writes.push(async () => {
      log.push('first starts');
      await first.opened;
      log.push('first ends');
    });
    writes.push(async () => {
      log.push('second');
    });
    log.push('pusher goes on');
    await Promise.resolve();
    await Promise.resolve();
    expect(log).toEqual(['pusher goes on', 'first starts']);
    first.open();
    await writes.settled();
    expect(log).toEqual(['pusher goes on', 'first starts', 'first ends', 'second']);
  });

  it('skips the writes after a failure, says so, and throws the first failure once settled', async () => {
    const writes = createWriteBehind();
    const ran: string[] = [];
    writes.push(() => Promise.reject(new Error('disk full')));
    writes.push(async () => {
      ran.push('after');
      throw new Error('later failure');
    });
    expect(writes.failed).toBe(false);
    await expect(writes.settled()).rejects.toThrow('disk full');
    expect(writes.failed).toBe(true);
    expect(ran).toEqual([]);
    await expect(writes.settled()).rejects.toThrow('disk full');
  });
});
