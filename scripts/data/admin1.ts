/**
 * One-off generator of `src/data/geocoding/admin1-regions.tsv`, the committed
 * table of first-level regions ("Colorado", "CO", "Catalonia") a place query
 * may name after a comma; the build indexes it (scripts/data/regions.ts).
 *
 * Source: the `iso3166-2-db` package 2.3.11 (MIT, https://github.com/esosedi/3166),
 * whose `data/iso3166-2.json` joins each ISO 3166-2 subdivision to its GeoNames
 * admin1 code and GeoNames feature id, with the GeoNames name (CC BY 4.0) and
 * names in a few languages. It is not a dependency: the package weighs over
 * 250 MB for a 0.2 MB table, and regions change rarely. To refresh:
 *
 *   npm pack iso3166-2-db@2.3.11 && tar xzf iso3166-2-db-2.3.11.tgz
 *   node scripts/data/admin1.ts package/data/iso3166-2.json
 */
import { readFile, writeFile } from 'node:fs/promises';
import { z } from 'zod';

const OUTPUT = new URL('../../src/data/geocoding/admin1-regions.tsv', import.meta.url);
/** Languages whose names riders type in Latin script; the others are left out. */
const LANGUAGES = ['geonames', 'en', 'es', 'fr', 'de', 'it'] as const;
const LATIN = /^[\p{Script=Latin}\p{N}\p{P}\p{Zs}]+$/u;

const SourceSchema = z.record(
  z.string(),
  z.object({
    regions: z.array(
      z.object({
        name: z.string(),
        names: z.record(z.string(), z.string()),
        iso: z.string(),
        admin: z.string(),
        reference: z.object({ geonames: z.number().optional() }).optional(),
      }),
    ),
  }),
);

/**
 * Local names riders use that the package's languages (English, Spanish,
 * French, German, Italian) miss: Catalan, Basque, Galician, Valencian, Dutch
 * and Frisian. Names are facts; this short list is the project's own.
 */
const LOCAL_NAMES: Record<string, readonly string[]> = {
  'ES.56': ['Catalunya'],
  'ES.58': ['Galiza'],
  'ES.59': ['Euskadi', 'Euskal Herria'],
  'ES.60': ['Comunitat Valenciana'],
  'BE.VLG': ['Vlaanderen', 'Vlaams Gewest'],
  'BE.WAL': ['Wallonie'],
  'BE.BRU': ['Bruxelles', 'Brussel'],
  'NL.02': ['Fryslân'],
  'NL.06': ['Noord-Brabant'],
  'NL.07': ['Noord-Holland'],
  'NL.11': ['Zuid-Holland'],
};

const clean = (text: string) => text.replace(/[\t\n|]+/g, ' ').trim();

const source = process.argv[2];
if (source === undefined)
  throw new Error('usage: node scripts/data/admin1.ts <iso3166-2-db/data/iso3166-2.json>');
const countries = SourceSchema.parse(JSON.parse(await readFile(source, 'utf8')));
const rows: string[] = [];
for (const [countryCode, { regions }] of Object.entries(countries).sort(([a], [b]) => (a < b ? -1 : 1))) {
  if (!/^[A-Z]{2}$/.test(countryCode)) continue;
  const seen = new Set<string>();
  for (const region of [...regions].sort((a, b) => (a.admin < b.admin ? -1 : 1))) {
    // Two source rows share an admin1 code (AF 39, NZ F1; the second NZ one mislabels West Coast as
    // Gisborne): the first is kept, so a place's code names one region.
    if (seen.has(region.admin)) continue;
    seen.add(region.admin);
    const display = clean(region.names['geonames'] ?? region.name);
    const local = LOCAL_NAMES[`${countryCode}.${region.admin}`] ?? [];
    const languages = LANGUAGES.map((language) => region.names[language] ?? '');
    const names = new Set([region.name, ...languages, ...local].map(clean));
    names.delete(display);
    names.delete('');
    const latin = [...names].filter((name) => LATIN.test(name));
    const geonameId = region.reference?.geonames ?? '';
    rows.push([countryCode, region.admin, region.iso, geonameId, display, latin.join('|')].join('\t'));
  }
}
const body = [
  '# First-level regions of every country: one line per region, sorted by country and GeoNames admin1 code.',
  '# Derived by scripts/data/admin1.ts from iso3166-2-db 2.3.11 (MIT, esosedi); names from GeoNames (CC BY 4.0),',
  '# plus a few local names listed in that script. The build indexes it (scripts/data/regions.ts).',
  'country\tadmin1\tiso\tgeonames_id\tname\tother_names',
  ...rows,
  '',
].join('\n');
await writeFile(OUTPUT, body);
console.log(
  `admin1: ${rows.length} regions, ${(Buffer.byteLength(body) / 1e3).toFixed(0)} kB → ${OUTPUT.pathname}`,
);
