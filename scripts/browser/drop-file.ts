import type { Page } from 'playwright-core';

/**
 * Drops a file on the route calculator's drop box the way a browser does: a
 * `drop` event carrying a DataTransfer. Shared by `npm run screenshot --route`
 * and the route browser tests.
 */
export async function dropFile(page: Page, name: string, text: string): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name));
      return transfer;
    },
    { name, text },
  );
  await page.dispatchEvent('#route-drop', 'drop', { dataTransfer });
}
