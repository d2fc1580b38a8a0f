import { createMcpHandler } from '@modelcontextprotocol/server';
import { authInfoOf, buildServer } from '../../src/mcp/build-server.ts';
import { ANSWER_BUDGET } from '../../src/mcp/size-budgets.ts';
import { createRateLimiter } from '../../src/mcp/rate-limit.ts';
import { RIDER_ADDRESS_TOOLS } from '../../src/mcp/tools/rider/index.ts';
import { resolveUrls } from '../../src/http/public-urls.ts';
import { connectClient, inProcessFetch, type Era } from './mcp-client.ts';
import { TEST_MCP_URL, testDeps, testEndpoint } from './mcp-deps.ts';
import { createRiderHarness } from './rider-harness.ts';
import { hundredKmPoints } from './route-points.ts';
import { measuringFetch } from './served-bytes.ts';

export type Address = '/mcp' | '/mcp/rider';
export const ADDRESSES: readonly Address[] = ['/mcp', '/mcp/rider'];

/** The rider address's handler as the rider harness builds it, for a caller that needs no store: tools/list. */
function riderFetch() {
  const deps = testDeps();
  const limiter = createRateLimiter({ perMinute: 600, burst: 100 });
  const handler = createMcpHandler(
    () => buildServer({ tools: RIDER_ADDRESS_TOOLS, deps, audience: { pro: true }, limiter }),
    { legacy: 'stateless' },
  );
  const authInfo = authInfoOf({
    caller: { kind: 'rider', riderId: 'lister', grantId: 'g', clientId: 'c', scopes: [] },
    urls: resolveUrls({}, new URL(`${TEST_MCP_URL}/rider`)),
    limitKey: 'grant:g',
  });
  return (input: string | URL | Request, init?: RequestInit) =>
    handler.fetch(new Request(input, init), { authInfo });
}

/**
 * `tools/list` at an address as an SDK client receives it: the HTTP body's
 * UTF-8 bytes (JSON-RPC envelope and any SSE framing included), and how many
 * tools it listed.
 */
export async function servedToolList(address: Address, era: Era): Promise<{ bytes: number; tools: number }> {
  const inner = address === '/mcp' ? inProcessFetch(testEndpoint()) : riderFetch();
  const measured = measuringFetch(inner);
  const url = address === '/mcp' ? TEST_MCP_URL : `${TEST_MCP_URL}/rider`;
  const client = await connectClient(url, era, measured.fetch);
  try {
    const { tools } = await client.listTools();
    const bytes = measured.bytes.get('tools/list');
    if (bytes === undefined) throw new Error(`no tools/list answer measured at ${address}`);
    return { bytes, tools: tools.length };
  } finally {
    await client.close();
  }
}

/**
 * One `tools/call` at the public address as an SDK client receives it: the
 * HTTP body's UTF-8 bytes, and whether the tool answered with an error.
 */
export async function servedPublicAnswer(
  name: string,
  args: Record<string, unknown>,
  era: Era = '2025',
): Promise<{ bytes: number; isError: boolean }> {
  const measured = measuringFetch(inProcessFetch(testEndpoint()));
  const client = await connectClient(TEST_MCP_URL, era, measured.fetch);
  try {
    const result = await client.callTool({ name, arguments: args });
    const bytes = measured.bytes.get('tools/call');
    if (bytes === undefined) throw new Error(`no tools/call answer measured for ${name}`);
    return { bytes, isError: result.isError === true };
  } finally {
    await client.close();
  }
}

/** The plans a rider-address answer is measured for: Pro and trial riders get the chance, a free one the lock. */
export type RiderPlan = 'pro' | 'trial' | 'free';

export interface RiderSizes {
  /** One `tools/call` at the rider address as a rider on `plan` receives it (see `servedPublicAnswer`). */
  answer(
    plan: RiderPlan,
    name: string,
    args: Record<string, unknown>,
    era?: Era,
  ): Promise<{ bytes: number; isError: boolean; structured: Record<string, unknown> | undefined }>;
  close(): Promise<void>;
}

/**
 * The rider address in-process (the rider harness: its own store, the demo
 * forecast and ensemble at the test time) with a Pro, a trial and a free
 * rider, for measuring its answers as served.
 */
export async function riderSizes(): Promise<RiderSizes> {
  const harness = await createRiderHarness();
  const nowS = Math.floor(harness.deps.now() / 1000);
  const riders = {
    pro: await harness.createRider({ plan: 'pro' }),
    trial: await harness.createRider({ trialEndsAt: nowS + 7 * 86_400 }),
    free: await harness.createRider({ trialEndsAt: nowS - 86_400 }),
  };
  return {
    async answer(plan, name, args, era = '2025') {
      let measured: ReturnType<typeof measuringFetch> | undefined;
      const client = await harness.connectRider(riders[plan], {
        era,
        wrapFetch: (inner) => (measured = measuringFetch(inner)).fetch,
      });
      const result = await client.callTool({ name, arguments: args });
      const bytes = measured?.bytes.get('tools/call');
      if (bytes === undefined) throw new Error(`no tools/call answer measured for ${name}`);
      return {
        bytes,
        isError: result.isError === true,
        structured: result.structuredContent as Record<string, unknown> | undefined,
      };
    },
    close: () => harness.close(),
  };
}

/** An answer the budgets hold for: what, where (a rider's plan at the rider address), the call, the budget. */
export interface AnswerExample {
  readonly what: string;
  /** Absent: the public address. */
  readonly plan?: RiderPlan;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly isError: boolean;
  readonly budget: number;
}

const FIVE_SEGMENTS = { place: "Bourg-d'Oisans", limit: 5 };
/** A place with no catalog segment in 25 km: the three nearest beyond it and the eight headings. */
const HEADINGS = { place: 'Girona' };
const FORTY_KM = { points: hundredKmPoints().slice(0, 81) };
/** The same ride moved to Kathmandu (UTC+5:45): starts on local hours, the forecast interpolated (issue 28). */
const FORTY_KM_KATHMANDU = {
  points: FORTY_KM.points.map((p) => ({
    latitude: Math.round((p.latitude - 45.19 + 27.7) * 1e6) / 1e6,
    longitude: Math.round((p.longitude - 5.72 + 85.32) * 1e6) / 1e6,
  })),
};
/** A 40 km square ridden back to its start, a point every 500 m, asked to be kept: the save is refused. */
const FORTY_KM_LOOP_SAVED = {
  save_as: 'Sunday loop',
  points: Array.from({ length: 81 }, (_, i) => {
    const side = Math.floor(i / 20) % 4;
    const along = ((i % 20) / 20) * 0.09;
    const corners: readonly (readonly [number, number])[] = [
      [0, along],
      [along, 0.09],
      [0.09, 0.09 - along],
      [0.09 - along, 0],
    ];
    const [dLat, dLon] = corners[i === 80 ? 0 : side] ?? [0, 0];
    return {
      latitude: Math.round((45.19 + dLat) * 1e6) / 1e6,
      longitude: Math.round((5.72 + dLon) * 1e6) / 1e6,
    };
  }),
};

/**
 * The examples of issue 21, measured by the budget test and by `npm run
 * bench` alike: each answer at the public address, and at the rider address
 * the ones a Pro or trial rider gets more in (the chance of a tailwind, the
 * ensemble) and a free rider's locked hint.
 */
export const ANSWER_EXAMPLES: readonly AnswerExample[] = [
  {
    what: 'find, 5 segments',
    tool: 'find_tailwind_segments',
    args: FIVE_SEGMENTS,
    isError: false,
    budget: ANSWER_BUDGET.find_tailwind_segments,
  },
  {
    what: 'find, headings (Girona)',
    tool: 'find_tailwind_segments',
    args: HEADINGS,
    isError: false,
    budget: ANSWER_BUDGET.find_tailwind_segments,
  },
  {
    what: 'get_segment',
    tool: 'get_segment',
    args: { segment_id: 'fr-alpe-d-huez' },
    isError: false,
    budget: ANSWER_BUDGET.get_segment,
  },
  {
    what: 'get_route_wind, 40 km',
    tool: 'get_route_wind',
    args: FORTY_KM,
    isError: false,
    budget: ANSWER_BUDGET.get_route_wind,
  },
  {
    what: 'get_route_wind, 40 km, Kathmandu (local hours)',
    tool: 'get_route_wind',
    args: FORTY_KM_KATHMANDU,
    isError: false,
    budget: ANSWER_BUDGET.get_route_wind,
  },
  {
    what: 'find_tailwind_segments error',
    tool: 'find_tailwind_segments',
    args: { radius_m: 5 },
    isError: true,
    budget: ANSWER_BUDGET.error,
  },
  {
    what: 'get_segment error',
    tool: 'get_segment',
    args: { segment_id: 'no-such-segment' },
    isError: true,
    budget: ANSWER_BUDGET.error,
  },
  {
    what: 'get_route_wind error',
    tool: 'get_route_wind',
    args: { points: [{ x: 1, y: 2 }] },
    isError: true,
    budget: ANSWER_BUDGET.error,
  },
  ...(['pro', 'trial', 'free'] as const).flatMap((plan): AnswerExample[] => [
    {
      what: 'find, 5 segments',
      plan,
      tool: 'find_tailwind_segments',
      args: FIVE_SEGMENTS,
      isError: false,
      budget: ANSWER_BUDGET.find_tailwind_segments,
    },
    {
      what: 'find, headings (Girona)',
      plan,
      tool: 'find_tailwind_segments',
      args: HEADINGS,
      isError: false,
      budget: ANSWER_BUDGET.find_tailwind_segments,
    },
    {
      what: 'get_segment',
      plan,
      tool: 'get_segment',
      args: { segment_id: 'fr-alpe-d-huez' },
      isError: false,
      budget: ANSWER_BUDGET.get_segment,
    },
  ]),
  {
    what: 'get_route_wind, 40 km',
    plan: 'pro',
    tool: 'get_route_wind',
    args: FORTY_KM,
    isError: false,
    budget: ANSWER_BUDGET.get_route_wind,
  },
  {
    what: 'get_route_wind, 40 km loop, save_as refused',
    plan: 'pro',
    tool: 'get_route_wind',
    args: FORTY_KM_LOOP_SAVED,
    isError: false,
    budget: ANSWER_BUDGET.get_route_wind,
  },
  {
    what: 'get_segment error',
    plan: 'pro',
    tool: 'get_segment',
    args: { segment_id: 'no-such-segment' },
    isError: true,
    budget: ANSWER_BUDGET.error,
  },
];

/** Where an example is answered, as a table shows it. */
export const exampleAddress = (example: AnswerExample): string =>
  example.plan ? `/mcp/rider (${example.plan})` : '/mcp';
