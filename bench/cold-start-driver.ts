/**
 * What each fresh process of the cold-start bench runs, as Vercel's Node
 * runtime runs a function: import its module, unwrap its default export,
 * and serve one request through a `node:http` server on loopback. A
 * function with a `fetch` export gets a web `Request` built from Node's
 * request, and its `Response` written back, as the runtime's bridge does
 * (`createWebHandler` in @vercel/node's bundling handler); a Node-style
 * `(req, res)` function gets Node's objects as they are. The client is
 * `node:http` too, so no row pays for undici unless its function builds a
 * `Request`. The figures are `performance.now()`, milliseconds since the
 * process started: after the import, and when the answer's body has been read;
 * beside them the process's CPU time (user and system) at that moment, which
 * a busy machine moves less than the wall clock.
 */

/** Precedes the driver's result on stdout, after whatever the function itself logged. */
export const RESULT_MARK = '@@cold-start-result@@';

/** The driver's source, for `node --input-type=module -e DRIVER <entry URL> <URL> <init JSON>`. */
export const DRIVER = `
// As the runtime's CommonJS launcher takes them: an ES import of node:http would build its ES facade,
// whose getters (WebSocket and the like) load undici, which only a function that needs it should pay for.
const { createServer, request: send } = process.getBuiltinModule('node:http');
const { Readable } = process.getBuiltinModule('node:stream');
const [entry, url, init] = process.argv.slice(1);
let fn = await import(entry);
for (let i = 0; i < 5 && fn?.default; i += 1) fn = fn.default;
const imported = performance.now();
const web = (fetch) => async (req, res) => {
  const proto = req.headers['x-forwarded-proto'] || 'https';
  const host = req.headers['x-forwarded-host'] || req.headers.host || 'localhost';
  const options = { method: req.method, headers: req.headers, duplex: 'half' };
  if (req.method !== 'GET' && req.method !== 'HEAD') options.body = Readable.toWeb(req);
  const response = await fetch(new Request(new URL(req.url || '/', proto + '://' + host), options));
  res.statusCode = response.status;
  for (const [name, value] of response.headers) res.appendHeader(name, value);
  if (response.body) for await (const chunk of response.body) res.write(chunk);
  res.end();
};
const server = createServer(typeof fn.fetch === 'function' ? web(fn.fetch) : fn);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const { method, headers, body } = JSON.parse(init);
const target = new URL(url);
const answer = await new Promise((resolve, reject) => {
  const request = send(
    { host: '127.0.0.1', port: server.address().port, method, path: target.pathname + target.search, headers: { host: target.host, ...headers } },
    (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode, body: text }));
    },
  );
  request.on('error', reject);
  request.end(body);
});
const answered = performance.now();
const { user, system } = process.cpuUsage();
server.close();
process.stdout.write('\\n' + ${JSON.stringify(RESULT_MARK)} + JSON.stringify({ imported, answered, cpu: (user + system) / 1000, ...answer }));
`;
