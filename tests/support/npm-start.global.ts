/**
 * Global setup of the `npm-start` project (vitest.config.ts): one `npm start` per configuration
 * for all of its files, started side by side before the first file and stopped after the last,
 * instead of one per file. Each file gets a server's base URL with `sharedService(name)`
 * (tests/support/service.ts), which reads what is provided here.
 */
import type { TestProject } from 'vitest/node';
import { startService } from '../../scripts/service/launch.ts';

/** The configurations the project's files share, by the name they ask for. */
export const SHARED_CONFIGURATIONS = {
  /** `npm start` as the README says: nothing set. */
  npmStart: {},
  /** Problem types pointing at another documentation address. */
  npmStartWithDocsUrl: { WOS_DOCS_URL: 'https://docs.example.org/api' },
} as const satisfies Record<string, Record<string, string>>;

export type SharedConfiguration = keyof typeof SHARED_CONFIGURATIONS;

declare module 'vitest' {
  /** Each shared configuration's base URL, by its name in SHARED_CONFIGURATIONS. */
  export interface ProvidedContext {
    npmStart: string;
    npmStartWithDocsUrl: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  const names = Object.keys(SHARED_CONFIGURATIONS) as SharedConfiguration[];
  const started = await Promise.allSettled(names.map((name) => startService(SHARED_CONFIGURATIONS[name])));
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const stopAll = async (): Promise<void> => {
    await Promise.all(running.map((service) => service.stop()));
  };
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  names.forEach((name, index) => project.provide(name, running[index]?.baseUrl ?? ''));
  return stopAll;
}
