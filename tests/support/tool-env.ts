/**
 * The environment a test gives a command-line tool it runs in a child process. The test suite's own
 * switches (`WOS_REQUIRE_POSTGRES`, `WOS_REQUIRE_REDIS`, set by CI) are no settings of the service,
 * so a tool rightly names them on stderr as unknown; they are left out here so that stderr holds
 * only what the tool says about its own work.
 */
export const toolEnv: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.startsWith('WOS_REQUIRE_')),
);
