/**
 * The module the function bundles load in place of `src/rest/sync-queries.ts`: the same table, read
 * off the schemas now, with each plan's rule named in `QUERY_RULES` (`src/rest/query-rules.ts`), so
 * the REST function builds its route table without loading zod (decision 0045).
 */
import { fileURLToPath } from 'node:url';
import { QUERY_RULES } from '../../src/rest/query-rules.ts';
import { SYNC_QUERIES } from '../../src/rest/sync-queries.ts';

const RULES_MODULE = fileURLToPath(new URL('../../src/rest/query-rules.ts', import.meta.url));

/** The name `QUERY_RULES` gives a plan's rule; a rule it does not hold cannot be generated. */
function ruleName(rule: unknown, path: string): string {
  const entry = Object.entries(QUERY_RULES).find(([, known]) => known === rule);
  if (entry === undefined) throw new Error(`The query rule of ${path} is not in QUERY_RULES.`);
  return entry[0];
}

/** The source of the generated module; `rulesModule` is the path it imports the rules from. */
export function prebuiltSyncQueriesModule(rulesModule = RULES_MODULE): string {
  const entries = Object.entries(SYNC_QUERIES).map(([path, { query, plan }]) => {
    const planText =
      plan === undefined
        ? ''
        : `, plan: { fields: ${JSON.stringify(plan.fields)}, rule: QUERY_RULES.${ruleName(plan.rule, path)} }`;
    return `  ${JSON.stringify(path)}: { query: ${String(query)}${planText} },`;
  });
  return [
    '/** Generated at build time by scripts/vercel/prebuilt-sync-queries.ts from the query schemas. */',
    `import { QUERY_RULES } from ${JSON.stringify(rulesModule)};`,
    'export const SYNC_QUERIES = {',
    ...entries,
    '};',
    '',
  ].join('\n');
}
