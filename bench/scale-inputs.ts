/**
 * The inputs of the discovery scale row: K copies of the shipped Andorra
 * extract, each shifted by whole degrees, with its ids offset, written as one
 * sorted `.osm.pbf` by osmium, and a folder of SRTM tile names pointing at the
 * shipped tile (symbolic links: no copy on disk). Runnable alone:
 * `npm exec -- node bench/scale-inputs.ts 256 [--dir DIR]` prints the paths.
 *
 * Copy k is shifted east by k mod 360 degrees (longitude shifts keep every
 * distance and grade, so each copy of a row holds the same climbs), and rows
 * of 360 are shifted 3° north or south in turn (the extract reaches from
 * 41.7° to 42.8° N, so 3° keeps rows apart). Ids are offset by k × 10¹⁰,
 * above any id the extract holds, and the output is sorted by type then id
 * as a planet extract is: every copy's nodes, then every copy's ways, then
 * every copy's relations, streamed through `osmium cat` as OPL text, so
 * neither this process nor osmium holds more than one copy. Needs Debian's
 * `osmium-tool`; the discovery CLI itself does not.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEED_PBF = fileURLToPath(new URL('../seed/osm/andorra.osm.pbf', import.meta.url));
const SEED_TILE = fileURLToPath(new URL('../seed/dem/N42E001.hgt.zip', import.meta.url));
const TILE_SOUTH = 42;
const TILE_WEST = 1;
/** Above the largest id in the extract (2,323,322,020), and readable. */
const ID_STEP = 10_000_000_000;
const ROW = 360;
const ROW_STEP_DEG = 3;
/** Written into the header, as the extract's own: the copies are of 2013 data. */
const REPLICATION_TIMESTAMP = '2013-05-28T18:59:04Z';
/** Bumped when the layout changes, so a cached input of another layout is rebuilt. */
const LAYOUT = 'v1';

export interface ScaleInput {
  readonly copies: number;
  readonly pbf: string;
  readonly demDir: string;
  readonly bytes: number;
}

/** Latitude and longitude shift of copy k, whole degrees. */
export function shiftOf(k: number): { dLat: number; dLon: number } {
  const row = Math.floor(k / ROW);
  const dLat = row === 0 ? 0 : (row % 2 === 1 ? 1 : -1) * Math.ceil(row / 2) * ROW_STEP_DEG;
  return { dLat, dLon: k % ROW };
}

/** Whether osmium-tool is on the PATH. */
export function hasOsmium(): boolean {
  return spawnSync('osmium', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A decimal degree string plus whole degrees, exactly (OPL writes at most 7 decimals). */
function shifted(text: string, degrees: number, wrap: boolean): string {
  let value = Math.round(Number(text) * 1e7) + degrees * 1e7;
  if (wrap && value >= 180e7) value -= 360e7;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const whole = Math.floor(abs / 1e7);
  const fraction = String(abs % 1e7).padStart(7, '0');
  return `${sign}${whole}.${fraction}`;
}

const withOffset = (id: string, offset: number) => String(Number(id) + offset);

/** One OPL line of copy k: ids and references offset, coordinates shifted; fields are space-separated. */
function copyLine(line: string, k: number): string {
  const offset = k * ID_STEP;
  const { dLat, dLon } = shiftOf(k);
  return line
    .split(' ')
    .map((field, index) => {
      if (index === 0) return `${field[0]}${withOffset(field.slice(1), offset)}`;
      switch (field[0]) {
        case 'x':
          return field.length > 1 ? `x${shifted(field.slice(1), dLon, true)}` : field;
        case 'y':
          return field.length > 1 ? `y${shifted(field.slice(1), dLat, false)}` : field;
        case 'N':
          return `N${field
            .slice(1)
            .split(',')
            .map((ref) => (ref === '' ? ref : `n${withOffset(ref.slice(1), offset)}`))
            .join(',')}`;
        case 'M':
          return `M${field
            .slice(1)
            .split(',')
            .map((member) => {
              if (member === '') return member;
              const at = member.indexOf('@');
              return `${member[0]}${withOffset(member.slice(1, at), offset)}${member.slice(at)}`;
            })
            .join(',')}`;
        default:
          return field;
      }
    })
    .join(' ');
}

function cornerName(lat: number, lon: number): string {
  const ns = lat >= 0 ? 'N' : 'S';
  const ew = lon >= 0 ? 'E' : 'W';
  return `${ns}${String(Math.abs(lat)).padStart(2, '0')}${ew}${String(Math.abs(lon)).padStart(3, '0')}`;
}

/** Writes `data` to a stream, waiting when its buffer is full. */
function write(stream: NodeJS.WritableStream, data: string): Promise<void> {
  return stream.write(data) ? Promise.resolve() : new Promise((done) => stream.once('drain', () => done()));
}

/**
 * Builds (or finds, when built before with this layout) the input of `copies`
 * copies under `dir`: `andorra-x<K>.osm.pbf` and `dem-x<K>/`.
 */
export async function buildScaleInput(copies: number, dir: string = defaultScaleDir()): Promise<ScaleInput> {
  if (!Number.isInteger(copies) || copies < 1)
    throw new Error(`copies must be a whole number ≥ 1, not ${copies}`);
  mkdirSync(dir, { recursive: true });
  const pbf = join(dir, `andorra-x${copies}-${LAYOUT}.osm.pbf`);
  const demDir = join(dir, `dem-x${copies}-${LAYOUT}`);
  if (!existsSync(demDir)) {
    const partial = `${demDir}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial);
    for (let k = 0; k < copies; k++) {
      const { dLat, dLon } = shiftOf(k);
      const west = ((TILE_WEST + dLon + 540) % 360) - 180;
      symlinkSync(SEED_TILE, join(partial, `${cornerName(TILE_SOUTH + dLat, west)}.hgt.zip`));
    }
    spawnSync('mv', [partial, demDir]);
  }
  if (!existsSync(pbf)) {
    if (!hasOsmium())
      throw new Error('osmium-tool is needed to build the scale inputs: apt-get install osmium-tool');
    const opl = spawnSync('osmium', ['cat', '-f', 'opl', SEED_PBF], {
      maxBuffer: 64 * 2 ** 20,
      encoding: 'utf8',
    });
    if (opl.status !== 0) throw new Error(`osmium cat failed: ${opl.stderr}`);
    const lines = opl.stdout.split('\n').filter((line) => line !== '');
    const byType = ['n', 'w', 'r'].map((type) => lines.filter((line) => line.startsWith(type)));
    const partial = `${pbf}.partial.osm.pbf`;
    const osmium = spawn(
      'osmium',
      [
        'cat',
        '-F',
        'opl',
        '-',
        '-o',
        partial,
        '-O',
        '--output-header',
        `osmosis_replication_timestamp=${REPLICATION_TIMESTAMP}`,
      ],
      { stdio: ['pipe', 'inherit', 'inherit'] },
    );
    const exited = new Promise<number | null>((done) => osmium.on('close', done));
    for (const group of byType) {
      for (let k = 0; k < copies; k++) {
        await write(osmium.stdin, `${group.map((line) => copyLine(line, k)).join('\n')}\n`);
      }
    }
    osmium.stdin.end();
    if ((await exited) !== 0) throw new Error('osmium cat could not write the scale input');
    spawnSync('mv', [partial, pbf]);
  }
  return { copies, pbf, demDir, bytes: statSync(pbf).size };
}

/** Where inputs go unless told: the system's temporary folder, never the repository. */
export function defaultScaleDir(): string {
  return join(tmpdir(), 'wos-scale');
}

/** Removes the inputs of `copies` copies (they are large: 630 MB at 1,280). */
export function removeScaleInput(input: ScaleInput): void {
  rmSync(input.pbf, { force: true });
  rmSync(input.demDir, { recursive: true, force: true });
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--dir');
  const dir = at >= 0 ? resolve(args[at + 1] ?? '.') : defaultScaleDir();
  const copies = Number(args.find((arg, i) => (at < 0 || i !== at + 1) && !arg.startsWith('--')) ?? '1');
  const input = await buildScaleInput(copies, dir);
  console.log(`${input.pbf} (${(input.bytes / 2 ** 20).toFixed(1)} MB)\n${input.demDir}`);
}
