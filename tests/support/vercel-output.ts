import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface VercelRoute {
  src?: string;
  dest?: string;
  status?: number;
  handle?: string;
  check?: boolean;
}

/**
 * Runs `vercel build` offline on a scratch copy of the project (its tracked
 * and unignored files, with node_modules linked), so it never races other
 * tests over `dist/`. Returns the `.vercel/output` directory.
 */
export function buildVercelOutput(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'wos-vercel-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  });
  for (const file of files.split('\n').filter((name) => name && existsSync(join(root, name)))) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file));
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  mkdirSync(join(copy, '.vercel'));
  writeFileSync(
    join(copy, '.vercel/project.json'),
    JSON.stringify({ projectId: 'offline', orgId: 'offline', settings: { framework: 'astro' } }),
  );
  execFileSync('npx', ['vercel', 'build', '--yes'], {
    cwd: copy,
    env: { ...process.env, VERCEL_INSTALL_COMPLETED: '1', VERCEL_TELEMETRY_DISABLED: '1' },
    stdio: 'pipe',
  });
  return join(copy, '.vercel/output');
}

type Handler = (request: Request) => Promise<Response>;

async function loadFunction(output: string, name: string): Promise<Handler | undefined> {
  const dir = join(output, 'functions', `${name}.func`);
  if (!existsSync(dir)) return undefined;
  const { handler } = JSON.parse(readFileSync(join(dir, '.vc-config.json'), 'utf8')) as { handler: string };
  const module = (await import(pathToFileURL(join(dir, handler)).href)) as { default: { fetch: Handler } };
  return module.default.fetch;
}

function staticFile(output: string, pathname: string): string | undefined {
  const base = join(output, 'static', pathname);
  return [base, `${base}.html`, join(base, 'index.html')].find(
    (file) => existsSync(file) && !file.endsWith('/'),
  );
}

/**
 * A small stand-in for Vercel's router over `config.json`: the filesystem
 * phase, then `dest` routes to functions (the function sees the URL the
 * client asked for, as on Vercel), then status routes. Enough for the routes
 * this project generates; an unknown route shape fails the test loudly.
 */
export async function createVercelRouter(output: string): Promise<Handler> {
  const { routes } = JSON.parse(readFileSync(join(output, 'config.json'), 'utf8')) as {
    routes: VercelRoute[];
  };
  return async (request) => {
    const { pathname } = new URL(request.url);
    let filesystemDone = false;
    for (const route of routes) {
      if (route.handle === 'filesystem') {
        const file = staticFile(output, pathname);
        if (file && request.method === 'GET') return new Response(readFileSync(file), { status: 200 });
        filesystemDone = true;
        continue;
      }
      if (route.handle) break;
      if (!filesystemDone || !route.src || !new RegExp(route.src).test(pathname)) continue;
      if (route.dest && route.status === undefined) {
        const fn = await loadFunction(output, route.dest.replace(/^\//, ''));
        if (!fn) throw new Error(`route ${route.src} points at a missing function ${route.dest}`);
        return fn(request);
      }
      if (route.status) return new Response(null, { status: route.status });
    }
    return new Response(null, { status: 404 });
  };
}
