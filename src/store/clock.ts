/** The store's notion of now: unix seconds (UTC), the unit of every stored time. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
