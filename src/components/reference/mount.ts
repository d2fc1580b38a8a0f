import { createApiReference } from '@scalar/api-reference';
import '@scalar/api-reference/style.css';

/**
 * Mounts Scalar on the reference page only, so its bundle never loads
 * anywhere else. It reads the OpenAPI document the API serves, which is
 * generated from the validation schemas.
 */
export function mountReference(): void {
  const element = document.getElementById('api-reference');
  if (!element) return;
  createApiReference(element, {
    url: element.dataset['url'] ?? '/openapi.json',
    hideClientButton: true,
    showDeveloperTools: 'never',
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
  });
}
