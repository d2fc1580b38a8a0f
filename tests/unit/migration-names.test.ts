/**
 * Migration names are recorded by every deployed database (`store_migration`),
 * so a shipped one is never renamed; what this holds is that each new one
 * takes a number of its own. Two shipped names share 0002 (`0002_auth` and
 * `0002_rider_segments`, src/store/migrations/index.ts): they are the only
 * exception, listed here, and no later number may be shared or skipped.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_MIGRATIONS } from '../../src/app/migrations.ts';
import { STORE_MIGRATIONS } from '../../src/store/migrations/index.ts';

/** Numbers shared by names that have shipped; never add to this list. */
const SHIPPED_SHARED_NUMBERS: Readonly<Record<string, readonly string[]>> = {
  '0002': ['0002_auth', '0002_rider_segments'],
};

const MIGRATIONS_DIR = fileURLToPath(new URL('../../src/store/migrations/', import.meta.url));
const NAME = /^(\d{4})_[a-z][a-z0-9_]*$/;
const FILE = /^(\d{4})-[a-z][a-z0-9-]*\.ts$/;

const numberOf = (name: string): string => name.slice(0, 4);

describe('migration names', () => {
  const names = Object.keys(APP_MIGRATIONS);

  it('are a four-digit number and a snake_case name', () => {
    for (const name of names) expect(name, name).toMatch(NAME);
  });

  it('give each number to one migration, but for the shipped exception', () => {
    const byNumber = Map.groupBy(names.toSorted(), numberOf);
    const shared = Object.fromEntries([...byNumber].filter(([, group]) => group.length > 1));
    expect(shared).toEqual(SHIPPED_SHARED_NUMBERS);
  });

  it('number the migrations 1, 2, 3, … with no gap', () => {
    const numbers = [...new Set(names.map((name) => Number(numberOf(name))))].sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, index) => index + 1));
  });

  it('keep one file per store migration, named for it', () => {
    const files = readdirSync(MIGRATIONS_DIR).filter((file) => file !== 'index.ts');
    for (const file of files) expect(file, file).toMatch(FILE);
    const fromFiles = files.map((file) => file.replace(/\.ts$/, '').replaceAll('-', '_')).sort();
    expect(fromFiles).toEqual(Object.keys(STORE_MIGRATIONS).sort());
  });
});
