/**
 * `npm run stripe:double [-- <webhook URL>]`: the local Stripe test double
 * (scripts/billing/stripe-double.ts) on port 12111 (`STRIPE_DOUBLE_PORT`),
 * sending its events to `http://localhost:3000/api/billing/webhook` unless
 * told otherwise. It prints the variables to start the server with.
 */
import { doubleEnvironment, doublePrices, DOUBLE_WEBHOOK_SECRET } from './billing/double-prices.ts';
import { startStripeDouble } from './billing/stripe-double.ts';
import { parseCommand, runCommand, UsageError } from './cli.ts';

const NAME = 'npm run stripe:double';
const USAGE = `Usage: ${NAME} [-- <webhook URL>]

Starts a local test double of the Stripe endpoints the server calls, on port 12111
(STRIPE_DOUBLE_PORT), sending its signed events to the webhook URL (default
http://localhost:3000/api/billing/webhook), and prints the variables to start \`npm start\` with.
Stop it with Ctrl-C.`;

let webhookUrl = 'http://localhost:3000/api/billing/webhook';
let port = 12111;
await runCommand(NAME, () => {
  const { positionals } = parseCommand(
    { name: NAME, usage: USAGE, options: {}, allowPositionals: true },
    process.argv.slice(2),
  );
  if (positionals.length > 1) throw new UsageError(`one webhook URL at most; unexpected "${positionals[1]}"`);
  webhookUrl = positionals[0] ?? webhookUrl;
  if (!/^https?:\/\//.test(webhookUrl) || !URL.canParse(webhookUrl))
    throw new UsageError(`the webhook URL must be an http(s) URL, not "${webhookUrl}"`);
  const portText = process.env['STRIPE_DOUBLE_PORT'] ?? String(port);
  port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`STRIPE_DOUBLE_PORT must be a port number from 0 to 65535, not "${portText}"`);
});
if (process.exitCode !== 0) process.exit();
const double = await startStripeDouble({
  webhookUrl,
  webhookSecret: DOUBLE_WEBHOOK_SECRET,
  prices: doublePrices(),
  port,
});
console.log(`Stripe test double on ${double.origin}, events to ${webhookUrl}. Start the server with:\n`);
const env = Object.entries(doubleEnvironment(double.origin)).map(([name, value]) => `${name}=${value}`);
console.log(`${env.join(' \\\n')} \\\nnpm start`);
process.once('SIGINT', () => void double.close().then(() => process.exit(0)));
process.once('SIGTERM', () => void double.close().then(() => process.exit(0)));
