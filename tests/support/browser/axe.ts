import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The WCAG 2.2 AA conformance target, as axe tags (2.2 adds only AA rules, hence no wcag22a). */
export const AXE_TAGS: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * Runs axe-core on the page as it is now and throws one readable message listing every violation
 * (rule, impact, the offending selectors, what to do), so a failing test says what to fix without
 * having to dig through axe's JSON.
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags([...AXE_TAGS]).analyze();
  if (violations.length === 0) return;
  const lines = violations.map((violation) => {
    const targets = violation.nodes.map((node) => `    - ${node.target.join(' >>> ')}`);
    return [
      `- ${violation.id} [${violation.impact ?? 'unknown'}]: ${violation.help} (${violation.helpUrl})`,
      ...targets,
    ].join('\n');
  });
  throw new Error(`${violations.length} axe violation(s) on ${label}:\n${lines.join('\n')}`);
}
