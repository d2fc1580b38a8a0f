/**
 * The sentence the rider pages show for a failed call: a problem document's
 * `detail` (the settings and billing APIs), else the sign-in service's
 * `message` or an OAuth `error_description`; never a server's 5xx text.
 */
import { describe, expect, it } from 'vitest';
import { failureMessage } from '../../src/components/rider/auth-client.ts';

describe('failureMessage', () => {
  it("shows a problem document's detail, as a sentence", () => {
    const problem = {
      type: 'https://wos.example/docs#error-no-billing-account',
      title: 'No Billing Account',
      status: 404,
      detail: 'No payment yet: pick a plan on the pricing page first.',
      code: 'no_billing_account',
      hint: 'Pick a plan on the pricing page first.',
    };
    expect(failureMessage({ status: 404, body: problem })).toBe(problem.detail);
    expect(failureMessage({ status: 400, body: { ...problem, detail: 'refused: too long' } })).toBe(
      'refused: too long.',
    );
  });

  it('still reads the sign-in and OAuth shapes their RFCs fix', () => {
    expect(
      failureMessage({ status: 401, body: { code: 'INVALID', message: 'Invalid email or password' } }),
    ).toBe('Invalid email or password.');
    expect(
      failureMessage({ status: 400, body: { error: 'invalid_client', error_description: 'bad client' } }),
    ).toBe('bad client.');
  });

  it("shows our 5xx problem's detail (worded for the rider), never another body's 5xx text", () => {
    const unavailable = {
      type: 'https://wos.example/docs#error-payment-provider-unavailable',
      status: 502,
      detail: 'The payment provider could not be reached. Try again in a moment.',
    };
    expect(failureMessage({ status: 502, body: unavailable })).toBe(unavailable.detail);
    expect(failureMessage({ status: 500, body: { message: 'SQLITE_BUSY: database is locked' } })).toBe(
      'Something went wrong on our side. Try again in a moment.',
    );
    expect(failureMessage({ status: 403, body: { detail: 'Cross-site request refused.' } })).toMatch(
      /Reload the page/,
    );
    expect(failureMessage({ status: 429, body: null })).toMatch(/Wait a few seconds/);
  });
});
