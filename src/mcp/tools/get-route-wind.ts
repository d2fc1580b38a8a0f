import { GetRouteWindInputSchema, GetRouteWindOutputSchema } from '../schemas/route.ts';
import { READ_ONLY_OPEN_WORLD, type ToolDefinition } from '../tool.ts';

export { DEFAULT_ROUTE_SPEED_KMH } from '../../core/route/route-ride.ts';

/** Public tool: a whole route, its best start times in the forecast and the wind along it. */
export const getRouteWind: ToolDefinition<typeof GetRouteWindInputSchema, typeof GetRouteWindOutputSchema> = {
  name: 'get_route_wind',
  title: 'Wind along a whole route',
  description:
    "The rider's own route (GPX, GeoJSON or points): the best daylight starts in the next 3 days, ranked " +
    'by the time the wind gains against still air at their speed or power, with the tailwind, headwind ' +
    'share and worst stretch; loops are judged both ways.',
  inputSchema: GetRouteWindInputSchema,
  outputSchema: GetRouteWindOutputSchema,
  annotations: READ_ONLY_OPEN_WORLD,
  // The answer's code (the route readers, the ride model, the words) loads with the tool's first call.
  run: async (input, context) => (await import('./route-wind-answer.ts')).routeWindAnswer(input, context),
};
