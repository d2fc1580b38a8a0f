import { readOsmFile } from '../src/data/discovery/osm-file.ts';
import { loadEmbeddedSegments } from '../src/data/segments/load.ts';
import { greatCircleM } from '../src/core/distance.ts';
const ex = await readOsmFile('seed/osm/andorra.osm.pbf');
const segs = loadEmbeddedSegments().filter((s) => /Climb to|CG-1 climb|CS-430|CG-3 climb/.test(s.name) && s.provenance?.osmSource.includes('andorra'));
for (const s of segs) {
  const top = s.polyline.at(-1)!; const foot = s.polyline[0]!;
  console.log(`\n== ${s.name}: foot ${foot.lat.toFixed(4)},${foot.lon.toFixed(4)} top ${top.lat.toFixed(4)},${top.lon.toFixed(4)}`);
  const near = [];
  for (const n of ex.nodes.values()) {
    if (!n.tags?.name) continue;
    const d = greatCircleM(top, n);
    if (d < 1500) near.push([d, n.tags.name, JSON.stringify(n.tags).slice(0, 120)]);
  }
  near.sort((a, b) => (a[0] as number) - (b[0] as number));
  for (const [d, name, tags] of near.slice(0, 6)) console.log(`  ${Math.round(d as number)} m  ${name}  ${tags}`);
}
for (const n of ex.nodes.values()) if (n.tags?.name && /gallina/i.test(n.tags.name)) console.log('GALLINA node', n.lat, n.lon, JSON.stringify(n.tags));
for (const w of ex.ways) if (w.tags?.name && /gallina/i.test(w.tags.name)) console.log('GALLINA way', w.id, JSON.stringify(w.tags));
