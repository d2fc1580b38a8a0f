/**
 * How a discovered segment ranks, from what the data can honestly say: no
 * ride counts exist here. In order of weight: the signed bicycle route
 * network it lies on (international > national > regional > local), whether
 * its top is a named road pass, whether the map links it to Wikidata or
 * Wikipedia (a feature people write about), and the climb's size (length ×
 * grade, the measure climb categories use). Hand-traced segments keep their
 * editorial ranks ahead of every discovered one.
 */

/** Points per signed cycle route network level (`network=icn|ncn|rcn|lcn`). */
export const NETWORK_POINTS: Readonly<Record<string, number>> = { icn: 4, ncn: 3, rcn: 2, lcn: 1 };

export interface RankBasis {
  /** The highest cycle route network the segment lies on, if any. */
  readonly network: string | null;
  readonly namedPass: boolean;
  readonly wiki: boolean;
  /** Metres gained × average grade (%) / 100: 0 for a flat stretch. */
  readonly sizeM: number;
}

/** A comparable score, higher first; size counts on a log scale so one huge climb does not drown a famous pass. */
export function rankScore(basis: RankBasis): number {
  const network = basis.network ? (NETWORK_POINTS[basis.network] ?? 0) : 0;
  const size = Math.log10(1 + Math.max(0, basis.sizeM));
  return network * 2 + (basis.namedPass ? 3 : 0) + (basis.wiki ? 2 : 0) + size;
}

/** What a rank rests on, in words an answer can carry: "named pass, Wikidata, climb size". */
export function rankReasons(basis: RankBasis): string {
  const reasons = [
    ...(basis.network ? [`${basis.network} cycle route`] : []),
    ...(basis.namedPass ? ['named pass'] : []),
    ...(basis.wiki ? ['Wikidata'] : []),
    ...(basis.sizeM > 0 ? ['climb size'] : []),
  ];
  return reasons.length > 0 ? reasons.join(', ') : 'road class';
}
