/**
 * The load table. The ratio to a bare `node:http` server on the same machine
 * is what is compared with the target, because absolute requests per second
 * say more about the machine than about the service.
 */
import type { LoadSettings, Measurement } from './load.ts';

/** The service should keep at least this share of the baseline's throughput. */
export const TARGET_RATIO = 0.85;

const COLUMNS = [
  { title: 'target', width: 24 },
  { title: 'req/s', width: 10 },
  { title: 'p50 ms', width: 8 },
  { title: 'p99 ms', width: 8 },
  { title: 'non-2xx', width: 9 },
  { title: 'errors', width: 8 },
] as const;

function row(cells: readonly string[]): string {
  return COLUMNS.map(({ width }, index) => {
    const cell = cells[index] ?? '';
    return index === 0 ? cell.padEnd(width) : cell.padStart(width);
  }).join(' ');
}

/** autocannon records latency in whole milliseconds, so no decimals are invented. */
const ms = (value: number): string => value.toLocaleString('en-US', { maximumFractionDigits: 2 });

function cells(measurement: Measurement): string[] {
  return [
    measurement.label,
    Math.round(measurement.requestsPerS).toLocaleString('en-US'),
    ms(measurement.p50Ms),
    ms(measurement.p99Ms),
    String(measurement.non2xx),
    String(measurement.errors),
  ];
}

/** Whether every measured request got a 2xx answer without a socket error or timeout. */
export function allAnswered(measurements: readonly Measurement[]): boolean {
  return measurements.every(({ non2xx, errors }) => non2xx === 0 && errors === 0);
}

/**
 * Prints the table and each service row's throughput ratio to the baseline;
 * the verdict applies to the first service row, the same request as the baseline.
 */
export function printLoadTable(
  baseline: Measurement,
  services: readonly Measurement[],
  settings: LoadSettings,
): void {
  console.log(
    `\nLoad: best of ${settings.rounds} alternating rounds; each ${settings.durationS} s measured after ` +
      `${settings.warmupS} s warm-up, ${settings.connections} connections, pipelining ${settings.pipelining}.`,
  );
  console.log('(req/s, p50, p99 from the best run; non-2xx and errors summed over all measured runs)\n');
  console.log(row(COLUMNS.map(({ title }) => title)));
  console.log(row(COLUMNS.map(({ width }) => '-'.repeat(width))));
  console.log(row(cells(baseline)));
  for (const service of services) console.log(row(cells(service)));
  console.log('');
  services.forEach((service, index) => {
    const ratio = baseline.requestsPerS > 0 ? service.requestsPerS / baseline.requestsPerS : 0;
    const verdict = ratio >= TARGET_RATIO ? 'PASS' : 'BELOW TARGET';
    const notes = ['', ' (every request computed)', ' (the floor: only the bytes the API must send)'];
    const judged = index === 0 ? ` (target >= ${TARGET_RATIO}): ${verdict}` : (notes[index] ?? '');
    console.log(`Throughput ${service.label} / baseline: ${ratio.toFixed(3)}${judged}`);
  });
}
