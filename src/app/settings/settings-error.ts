/**
 * A setting the service cannot start with. Its message is written for the
 * operator (variable, value, accepted form), so adapters print the message
 * alone and exit instead of showing a stack trace.
 */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** The error for refused values: one line each, in the order of the settings. */
export const invalidEnvironment = (lines: readonly string[]): SettingsError =>
  new SettingsError(`Invalid environment:\n${lines.map((line) => `  ${line}`).join('\n')}`);
