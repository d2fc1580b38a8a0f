import { describe, expect, it } from 'vitest';
import { PLANS } from '../../src/core/plans.ts';
import { FREE_MONTHLY_CALLS } from '../../src/core/rider-rules.ts';

/** The names of the MCP tools and other API words a rider reading the plans does not know. */
const API_WORDS = /\b(?:get|find|set|add|remove|watch|unwatch)_[a-z_]+\b|\bMCP\b|_kmh|_deg/;

describe('the plan catalog as a rider reads it', () => {
  it('says what each plan gives, naming no tool', () => {
    for (const plan of PLANS) {
      for (const feature of plan.features) expect(feature, plan.id).not.toMatch(API_WORDS);
    }
  });

  it('promises Free riders the monthly allowance the rider rules enforce', () => {
    const free = PLANS.find((plan) => plan.id === 'free');
    expect(free?.features.filter((line) => line.startsWith(`${FREE_MONTHLY_CALLS} questions`))).toHaveLength(
      1,
    );
  });
});
