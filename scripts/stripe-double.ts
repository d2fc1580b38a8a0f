/**
 * `npm run stripe:double [-- <webhook URL>]`: the local Stripe test double
 * (scripts/billing/stripe-double.ts) on port 12111 (`STRIPE_DOUBLE_PORT`),
 * sending its events to `http://localhost:3000/api/billing/webhook` unless
 * told otherwise. It prints the variables to start the server with.
 */
import { doubleEnvironment, doublePrices, DOUBLE_WEBHOOK_SECRET } from './billing/double-prices.ts';
import { startStripeDouble } from './billing/stripe-double.ts';

const webhookUrl = process.argv[2] ?? 'http://localhost:3000/api/billing/webhook';
const port = Number(process.env['STRIPE_DOUBLE_PORT'] ?? 12111);
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
