import { inject } from 'vitest';
import type { SharedConfiguration } from './npm-start.global.ts';

export { freePort, startDevServer, startService, type RunningService } from '../../scripts/service/launch.ts';

/** A server this file shares with the others of its project: only its address; the global setup stops it. */
export interface SharedService {
  readonly baseUrl: string;
}

/**
 * The `npm start` of one configuration, shared by every file of the `npm-start` project and
 * started once by its global setup (tests/support/npm-start.global.ts).
 */
export function sharedService(configuration: SharedConfiguration = 'npmStart'): SharedService {
  const baseUrl = inject(configuration);
  if (typeof baseUrl !== 'string' || baseUrl === '')
    throw new Error(`No shared "${configuration}" server: run this file in the npm-start project.`);
  return { baseUrl };
}
