/**
 * The alert job at scale (issue 13): 100,000 watches (10,000 Pro riders with
 * 10 each, over 25,000 generated segments) seeded into a temporary SQLite
 * file and, when a server answers, a temporary PostgreSQL database; then the
 * job as the cron runs it: the evaluation (keyset pages, forecasts through
 * the cache with the demo source), then webhook delivery of every alert it
 * recorded to receivers on eight loopback addresses (127.0.0.1–8, in a child
 * process: alerts-receiver.ts), with the most deliveries in flight they saw
 * and the job's own CPU time beside the wall time (the machine is shared). Each engine is measured
 * `WOS_BENCH_ALERT_REPEATS` times (default 3) on a fresh database; the table
 * gives the median and the range. A measurement, not a test: over 60 s still
 * exits 0; only a failed run (an error, an alert not delivered) exits 1.
 *
 * Runnable alone: `node bench/alerts-scale.ts [watches]`;
 * `runAlertScaleBench` is the hook for `npm run bench`.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, mkdtempSync } from 'node:fs';
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { evaluateAlerts, type EvaluateSummary } from '../src/alerts/evaluate.ts';
import {
  deliverPendingAlerts,
  WEBHOOK_CONCURRENCY,
  WEBHOOK_PER_HOST,
  type DeliverySummary,
} from '../src/alerts/alert-delivery.ts';
import { APP_MIGRATIONS } from '../src/app/migrations.ts';
import { createForecastCache } from '../src/data/forecast/cache.ts';
import { createDemoForecast } from '../src/data/forecast/demo.ts';
import { createSegmentCatalog } from '../src/data/segments/catalog.ts';
import { generateSegments, seededRandom } from '../tests/support/synthetic-segments.ts';
import { openStore, type Store, type StoreConfig } from '../src/store/database.ts';
import { migrateToLatest } from '../src/store/migrate.ts';
import { table } from './table.ts';
import { acceptLoopback } from '../tests/support/loopback-webhooks.ts';

/** The figure: a run over 100,000 watches within a minute. */
export const TARGET_RUN_S = 60;
const WATCHES_PER_RIDER = 10;
const SEGMENTS = 25_000;
const RECEIVER_HOSTS = 8;
const RECEIVER_SCRIPT = fileURLToPath(new URL('./alerts-receiver.ts', import.meta.url));
/** How long a receiver takes to answer. */
const RECEIVER_DELAY_MS = 2;
/** Seeding and three runs per engine on two engines, at most. */
export const ALERT_SCALE_SECONDS = 600;

const adminUrl = process.env['WOS_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface ReceiverStats {
  readonly received: number;
  readonly inFlight: number;
  readonly peak: number;
}

interface Receivers {
  readonly origins: readonly string[];
  /** The counts so far; the peak restarts from zero after each call. */
  stats(): Promise<ReceiverStats>;
  close(): void;
}

/** The receivers (alerts-receiver.ts) in a child process, so they do not compete with the job's thread. */
async function startReceivers(): Promise<Receivers> {
  const child = fork(RECEIVER_SCRIPT, [String(RECEIVER_HOSTS), String(RECEIVER_DELAY_MS)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const origins = await new Promise<readonly string[]>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { origins: string[] }).origins));
    child.once('exit', (code) => reject(new Error(`the receivers exited with ${code}`)));
  });
  return {
    origins,
    stats: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve((message as { stats: ReceiverStats }).stats));
        child.send('stats');
      }),
    close: () => {
      child.send('stop');
    },
  };
}

/** Riders (Pro, each with a webhook on one of the receivers) and their watches, in multi-row inserts. */
async function seed(
  store: Store,
  watches: number,
  origins: readonly string[],
  segmentIds: readonly string[],
) {
  // The catalog generator's seeded generator, so every repeat and engine gets the same watches.
  const random = seededRandom(7);
  const riders = Math.ceil(watches / WATCHES_PER_RIDER);
  const nowS = Math.floor(Date.now() / 1000);
  const chunk = 500;
  await store.db.transaction().execute(async (tx) => {
    for (let from = 0; from < riders; from += chunk) {
      const riderRows = [];
      const watchRows = [];
      for (let r = from; r < Math.min(riders, from + chunk); r++) {
        const id = `rider-${String(r).padStart(6, '0')}`;
        riderRows.push({
          id,
          email: `${id}@bench.example`,
          created_at: nowS,
          plan: 'pro' as const,
          trial_ends_at: null,
          webhook_url: `${origins[r % origins.length]}/hook/${id}`,
          webhook_secret: `whsec_${id}`,
        });
        const chosen = new Set<string>();
        while (chosen.size < Math.min(WATCHES_PER_RIDER, watches - r * WATCHES_PER_RIDER)) {
          chosen.add(segmentIds[Math.floor(random() * segmentIds.length)] ?? '');
        }
        for (const segment of chosen) {
          watchRows.push({
            rider_id: id,
            segment_id: segment,
            record_s: null,
            alerts_on: true,
            threshold_kmh: 5 + Math.floor(random() * 26),
            created_at: nowS,
          });
        }
      }
      await tx.insertInto('rider').values(riderRows).execute();
      for (let i = 0; i < watchRows.length; i += chunk) {
        await tx
          .insertInto('watch')
          .values(watchRows.slice(i, i + chunk))
          .execute();
      }
    }
  });
}

interface RunResult {
  readonly seedS: number;
  readonly evaluateS: number;
  /** CPU time of this process (the job; the receivers run apart): on a shared machine, what the job itself cost. */
  readonly evaluateCpuS: number;
  readonly deliverS: number;
  readonly deliverCpuS: number;
  readonly evaluation: EvaluateSummary;
  readonly delivery: DeliverySummary;
  readonly peakInFlight: number;
}

async function adminQuery(query: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answers, else why its rows are skipped. */
async function postgresMissing(): Promise<string | null> {
  try {
    await adminQuery('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function oneRun(
  engine: 'sqlite' | 'postgres',
  watches: number,
  receivers: Receivers,
  segmentsCatalog: ReturnType<typeof createSegmentCatalog>,
  segmentIds: readonly string[],
): Promise<RunResult> {
  const folder = mkdtempSync(join(tmpdir(), 'wos-alert-bench-'));
  const database = `wos_alert_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  let config: StoreConfig;
  if (engine === 'sqlite') config = { engine: 'sqlite', path: join(folder, 'alerts.sqlite') };
  else {
    await adminQuery(`create database "${database}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${database}`;
    config = { engine: 'postgres', url: url.toString() };
  }
  const store = openStore(config);
  try {
    await migrateToLatest(store, APP_MIGRATIONS);
    let started = performance.now();
    await seed(store, watches, receivers.origins, segmentIds);
    const seedS = (performance.now() - started) / 1000;

    const now = Date.now;
    const forecast = createForecastCache(createDemoForecast({ clock: now }), {
      clock: now,
      maxEntries: 50_000,
    });
    started = performance.now();
    const evaluateCpu = process.cpuUsage();
    const evaluation = await evaluateAlerts({ store, catalog: segmentsCatalog, forecast, now });
    const evaluateS = (performance.now() - started) / 1000;
    const evaluateCpuUsed = process.cpuUsage(evaluateCpu);
    const evaluateCpuS = (evaluateCpuUsed.user + evaluateCpuUsed.system) / 1e6;

    await receivers.stats();
    started = performance.now();
    const cpuBefore = process.cpuUsage();
    const delivery = await deliverPendingAlerts({
      store,
      now,
      catalog: segmentsCatalog,
      checkTarget: acceptLoopback,
    });
    const deliverS = (performance.now() - started) / 1000;
    const deliverCpu = process.cpuUsage(cpuBefore);
    if (evaluation.error !== null || !evaluation.complete)
      throw new Error(`evaluation incomplete: ${evaluation.error}`);
    if (delivery.delivered !== evaluation.alertsRecorded)
      throw new Error(
        `${delivery.delivered} of ${evaluation.alertsRecorded} alerts delivered in ${deliverS.toFixed(1)} s ` +
          `(evaluation ${evaluateS.toFixed(1)} s): ${JSON.stringify(delivery)}`,
      );
    return {
      seedS,
      evaluateS,
      evaluateCpuS,
      deliverS,
      deliverCpuS: (deliverCpu.user + deliverCpu.system) / 1e6,
      evaluation,
      delivery,
      peakInFlight: (await receivers.stats()).peak,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
    if (engine === 'postgres') await adminQuery(`drop database if exists "${database}" with (force)`);
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function spread(values: readonly number[]): string {
  return `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
}

/** Seeds, runs and prints; false when a run failed. */
export async function runAlertScaleBench(watches = 100_000): Promise<boolean> {
  const repeats = Math.max(1, Number(process.env['WOS_BENCH_ALERT_REPEATS'] ?? 3));
  const segments = generateSegments(SEGMENTS, 3);
  const segmentsCatalog = createSegmentCatalog(segments);
  const segmentIds = segments.map((segment) => segment.id);
  const missing = await postgresMissing();
  const engines: ('sqlite' | 'postgres')[] = missing === null ? ['sqlite', 'postgres'] : ['sqlite'];
  console.log(
    `\nAlert job: ${watches.toLocaleString('en')} watches, ${Math.ceil(watches / WATCHES_PER_RIDER).toLocaleString('en')} Pro riders, ` +
      `${SEGMENTS.toLocaleString('en')} segments, webhooks to ${RECEIVER_HOSTS} loopback receivers ` +
      `(${WEBHOOK_CONCURRENCY} in flight at most, ${WEBHOOK_PER_HOST} per host); ${repeats} runs per engine, median (range)`,
  );
  if (missing !== null) console.log(`PostgreSQL rows skipped: ${missing}`);
  const receivers = await startReceivers();
  const rows: string[][] = [];
  let ok = true;
  try {
    for (const engine of engines) {
      const results: RunResult[] = [];
      for (let i = 0; i < repeats; i++) {
        try {
          results.push(await oneRun(engine, watches, receivers, segmentsCatalog, segmentIds));
        } catch (error) {
          ok = false;
          console.error(
            `${engine} run ${i + 1} failed: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      const last = results.at(-1);
      if (!last) continue;
      const total = results.map((r) => r.evaluateS + r.deliverS);
      rows.push([
        engine,
        spread(results.map((r) => r.seedS)),
        spread(results.map((r) => r.evaluateS)),
        spread(results.map((r) => r.evaluateCpuS)),
        `${last.evaluation.pages}`,
        `${last.evaluation.forecastCalls} / ${last.evaluation.upstreamCalls ?? '-'} / ${last.evaluation.cellsFetched ?? '-'}`,
        `${last.evaluation.alertsRecorded}`,
        spread(results.map((r) => r.deliverS)),
        spread(results.map((r) => r.deliverCpuS)),
        `${Math.max(...results.map((r) => r.peakInFlight))}`,
        spread(total),
        median(total) <= TARGET_RUN_S ? 'ok' : 'MISS',
      ]);
    }
  } finally {
    receivers.close();
  }
  console.log(
    table(
      [
        'engine',
        'seed s',
        'evaluate s',
        'CPU s',
        'pages',
        'forecast calls / upstream / cells',
        'alerts',
        'deliver s',
        'CPU s',
        'peak in flight',
        'run s',
        `≤ ${TARGET_RUN_S} s`,
      ],
      rows,
      [1, 2, 3, 4, 6, 7, 8, 9, 10],
    ),
  );
  return ok;
}

if (import.meta.main) {
  const watches = Number(process.argv[2] ?? 100_000);
  if (!Number.isSafeInteger(watches) || watches < 1) {
    console.error('usage: node bench/alerts-scale.ts [watches]');
    process.exit(2);
  }
  process.exitCode = (await runAlertScaleBench(watches)) ? 0 : 1;
}
