/**
 * The route page's one error of its own: a failure whose message is written
 * for the rider and shown as it is (a file that cannot be taken, a forecast
 * that cannot be reached or read). The page renders every such failure the
 * same way, so one class is enough; anything else is a fault and gets the
 * page's general sentence. The core's `RouteInputError` stays beside it
 * because the page prefixes its message with the file's name.
 */
export class ShownError extends Error {}
