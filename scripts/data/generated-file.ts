/**
 * What every generated data file's `ensure…` step shares: whether the file is
 * newer than what it is made from, and writing it whole.
 */
import { rename, stat, writeFile } from 'node:fs/promises';

/** A file's modification time in ms, or null when it does not exist. */
export async function mtime(file: URL | string): Promise<number | null> {
  return (await stat(file).catch(() => null))?.mtimeMs ?? null;
}

export interface Freshness {
  /** The generated file exists and is newer than every input that exists. */
  readonly fresh: boolean;
  /** When the generated file was written; null when it does not exist. */
  readonly outputTime: number | null;
  /** Each input's time, in the order given; null for an input that is not installed. */
  readonly inputTimes: readonly (number | null)[];
}

/** Whether `output` is newer than its `inputs` (an input that does not exist does not make it stale). */
export async function freshness(output: URL | string, inputs: readonly (URL | string)[]): Promise<Freshness> {
  const [outputTime, inputTimes] = await Promise.all([mtime(output), Promise.all(inputs.map(mtime))]);
  const fresh = outputTime !== null && inputTimes.every((time) => time === null || time < outputTime);
  return { fresh, outputTime, inputTimes };
}

/** Writes a generated file beside itself, then renames it: a reader running in parallel never sees half a file. */
export async function writeWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}
