/**
 * The authorization server's paths beside `/api/auth/*` and the registration
 * body limit, apart from the handlers so the path table in `src/app/paths.ts`
 * names them without compiling better-auth.
 */
import { AUTH_BASE_PATH } from '../rider/access-policy.ts';

/** RFC 9728's protected-resource metadata. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
/** RFC 8414's authorization-server metadata. */
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const REGISTER_PATH = `${AUTH_BASE_PATH}/oauth2/register`;

/** A registration document is a few hundred bytes; anything this large is not one. */
export const MAX_REGISTRATION_BYTES = 64 * 1024;
