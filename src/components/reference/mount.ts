import { createApiReference } from '@scalar/api-reference';
import '@scalar/api-reference/style.css';

/**
 * Scalar's code blocks carry icon-only copy buttons with no accessible name;
 * screen readers announce them as "button". Name each one as it appears.
 */
function nameCopyButtons(root: HTMLElement): void {
  const name = () => {
    for (const button of root.querySelectorAll('button.scalar-code-copy:not([aria-label])')) {
      button.setAttribute('aria-label', 'Copy code');
    }
  };
  new MutationObserver(name).observe(root, { childList: true, subtree: true });
  name();
}

/**
 * Mounts Scalar on the reference page only, so its bundle never loads
 * anywhere else. It reads the OpenAPI document the API serves, which is
 * generated from the validation schemas. Every operation is shown open:
 * the API is small enough to read top to bottom.
 */
export function mountReference(): void {
  const element = document.getElementById('api-reference');
  if (!element) return;
  nameCopyButtons(element);
  createApiReference(element, {
    url: element.dataset['url'] ?? '/openapi.json',
    defaultOpenAllTags: true,
    hideClientButton: true,
    showDeveloperTools: 'never',
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
  });
}
