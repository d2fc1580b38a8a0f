/** The place search lives below both surfaces (`src/rider/place.ts`); the docs page reads its threshold here. */
export { TOWN_OUTRANKS_SEGMENT_FROM } from '../rider/place.ts';
