/**
 * What every command-line tool of the project shares, so they behave alike:
 * `--help` (or `-h`) prints the usage on stdout and exits 0; a bad argument
 * or a failure prints one plain line on stderr (`<tool>: <what went wrong>`,
 * never a stack trace) and exits non-zero: 2 for a usage mistake, with a
 * pointer to `--help` on the same line, 1 for anything else.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';

/** A mistake in how the tool was called: exit 2 and point to `--help`. */
export class UsageError extends Error {}

export interface Command<O extends ParseArgsOptionsConfig> {
  /** How the user runs it, e.g. `npm run rider`: the prefix of every error line. */
  readonly name: string;
  /** The full `--help` text. */
  readonly usage: string;
  readonly options: O;
  readonly allowPositionals?: boolean;
}

/**
 * Parses the arguments; prints the usage and exits 0 on `--help`. Node's own
 * parse errors (an unknown option, a missing value) become a `UsageError`
 * with Node's message, which already names the option.
 */
export function parseCommand<O extends ParseArgsOptionsConfig>(command: Command<O>, argv: readonly string[]) {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(command.usage);
    process.exit(0);
  }
  try {
    return parseArgs({
      args: [...argv],
      options: command.options,
      allowPositionals: command.allowPositionals ?? false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** The first line of an error's message: libraries' messages sometimes go on for a paragraph. */
export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n', 1)[0]?.trim() || (error instanceof Error ? error.name : 'failed');
}

/**
 * Runs a tool's main function and turns its outcome into the exit code: its own number, 2 after a
 * `UsageError`, 1 after any other error, each error printed as one line on stderr.
 */
export async function runCommand(
  name: string,
  /** Returns the exit code, or nothing for 0. */
  main: () => unknown,
): Promise<void> {
  try {
    const code = await main();
    process.exitCode = typeof code === 'number' ? code : 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${name}: ${firstLine(error)} (usage: ${name} -- --help)`);
      process.exitCode = 2;
    } else {
      console.error(`${name}: ${firstLine(error)}`);
      process.exitCode = 1;
    }
  }
}
