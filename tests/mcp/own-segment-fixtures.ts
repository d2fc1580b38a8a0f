/**
 * A made-up climb for the own-segment tests: eight hairpins up a valley side
 * near Bourg-d'Oisans, 700 m to 1,100 m, points every ~100 m with a little
 * noise in the elevation (as a barometric track has).
 */
export interface FixturePoint {
  readonly lat: number;
  readonly lon: number;
  readonly ele: number;
}

export function climbPoints(): FixturePoint[] {
  const points: FixturePoint[] = [];
  const perLeg = 10;
  const legs = 8;
  for (let leg = 0; leg < legs; leg++) {
    for (let i = 0; i < perLeg; i++) {
      const t = (leg * perLeg + i) / (legs * perLeg - 1);
      const along = leg % 2 === 0 ? i / (perLeg - 1) : 1 - i / (perLeg - 1);
      points.push({
        lat: Math.round((45.05 + leg * 0.0025 + i * 0.0001) * 1e6) / 1e6,
        lon: Math.round((6.03 + along * 0.012) * 1e6) / 1e6,
        ele: Math.round((700 + t * 400 + ((i * 7) % 3) - 1) * 10) / 10,
      });
    }
  }
  return points;
}

export function climbGpx(name = 'Hairpins above the valley'): string {
  const trkpts = climbPoints()
    .map((p) => `      <trkpt lat="${p.lat}" lon="${p.lon}"><ele>${p.ele}</ele></trkpt>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="wind-on-segment tests" xmlns="http://www.topografix.com/GPX/1/1">
  <trk>
    <name>${name}</name>
    <trkseg>
${trkpts}
    </trkseg>
  </trk>
</gpx>
`;
}

/** The climb as the tools' `points` argument. */
export function climbPointArgs(): { latitude: number; longitude: number; elevation_m: number }[] {
  return climbPoints().map((p) => ({ latitude: p.lat, longitude: p.lon, elevation_m: p.ele }));
}
