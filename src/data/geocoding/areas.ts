import type { PlaceKind } from './types.ts';

/** An island or cycling region, defined by towns that lie in it. */
export interface AreaDefinition {
  readonly name: string;
  /** Other names riders type for it (English, local, without "the"). */
  readonly aliases: readonly string[];
  readonly kind: Exclude<PlaceKind, 'town'>;
  /** ISO 3166-1 alpha-2 of the country it is in (mostly, for the Ardennes). */
  readonly countryCode: string;
  /**
   * GeoNames towns of 1,000 people or more inside it, by their GeoNames name (not an alternate), as
   * "Name" or "Name/admin1" when the name is shared within the country. The
   * build looks each up in the GeoNames data (and fails when one is
   * missing), so every coordinate comes from GeoNames.
   */
  readonly towns: readonly string[];
}

/**
 * Islands and regions riders name as places: islands, and regions that are
 * not first-level ones (the build adds those from the region table):
 * mountain ranges and national parks (Dolomites, Picos de Europa,
 * Cairngorms), wine regions (Chianti, Burgundy, Alsace, Napa Valley) and
 * cycling heartlands; a first-level region listed here (Tuscany, Flanders)
 * keeps this point, near its cycling towns, instead of the derived one. No openly licensed package
 * holds them with a point and an extent, so this is a small hand-kept list;
 * what comes from data is derived at build time (scripts/data/gazetteer.ts):
 * the point is the mean position of the listed GeoNames towns (CC BY 4.0)
 * and the radius reaches the farthest of them, rounded up to 5 km. The list
 * itself (which towns lie where) is this project's. Nothing here crosses the
 * antimeridian, where a plain mean would fail.
 */
export const AREAS: readonly AreaDefinition[] = [
  {
    name: 'Mallorca',
    aliases: ['Majorca'],
    kind: 'island',
    countryCode: 'ES',
    towns: [
      'Palma',
      'Manacor',
      'Inca',
      'Pollença',
      'Sóller',
      'Felanitx',
      'Alcúdia/07',
      'Llucmajor',
      'Andratx',
      'Artà',
    ],
  },
  {
    name: 'Menorca',
    aliases: ['Minorca'],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Maó', 'Ciutadella', 'Alaior', 'Ferreries'],
  },
  {
    name: 'Ibiza',
    aliases: ['Eivissa'],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Ibiza', 'Sant Antoni de Portmany', 'Santa Eulària des Riu', 'Sant Josep de sa Talaia'],
  },
  {
    name: 'Tenerife',
    aliases: [],
    kind: 'island',
    countryCode: 'ES',
    towns: [
      'Santa Cruz de Tenerife',
      'La Laguna/53',
      'Adeje',
      'Puerto de la Cruz',
      'Icod de los Vinos',
      'Granadilla de Abona',
      'Güímar',
    ],
  },
  {
    name: 'Gran Canaria',
    aliases: [],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Las Palmas de Gran Canaria', 'Telde', 'Gáldar', 'Agüimes', 'Arucas', 'Mogán', 'Maspalomas'],
  },
  {
    name: 'Lanzarote',
    aliases: [],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Arrecife', 'Teguise', 'Tías', 'Yaiza', 'Haría'],
  },
  {
    name: 'Fuerteventura',
    aliases: [],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Puerto del Rosario', 'Corralejo', 'Pájara', 'Tuineje', 'Antigua'],
  },
  {
    name: 'La Palma',
    aliases: [],
    kind: 'island',
    countryCode: 'ES',
    towns: ['Santa Cruz de La Palma', 'Los Llanos de Aridane', 'Tazacorte', 'Breña Alta'],
  },
  {
    name: 'Costa Blanca',
    aliases: [],
    kind: 'region',
    countryCode: 'ES',
    towns: ['Calp', 'Dénia', 'Altea', 'Benidorm', 'Jávea', 'Villajoyosa'],
  },
  {
    name: 'Basque Country',
    aliases: ['Euskadi', 'País Vasco', 'Pays Basque'],
    kind: 'region',
    countryCode: 'ES',
    towns: ['Bilbao', 'San Sebastián/59', 'Eibar', 'Durango', 'Gernika-Lumo', 'Zarautz'],
  },
  {
    name: 'Picos de Europa',
    aliases: [],
    kind: 'region',
    countryCode: 'ES',
    towns: ['Cangas de Onís', 'Potes'],
  },
  {
    name: 'Sardinia',
    aliases: ['Sardegna'],
    kind: 'island',
    countryCode: 'IT',
    towns: ['Cagliari', 'Sassari', 'Olbia', 'Nuoro', 'Oristano', 'Alghero', 'Tortolì'],
  },
  {
    name: 'Sicily',
    aliases: ['Sicilia'],
    kind: 'island',
    countryCode: 'IT',
    towns: ['Palermo', 'Catania', 'Messina', 'Siracusa', 'Trapani', 'Agrigento', 'Caltanissetta'],
  },
  {
    name: 'Dolomites',
    aliases: ['Dolomiti', 'Dolomiten'],
    kind: 'region',
    countryCode: 'IT',
    towns: ["Cortina d'Ampezzo", 'Canazei', 'Ortisei', 'Selva/17', 'Moena', 'Predazzo', 'Agordo'],
  },
  // Mountain ranges riders name alone (decision 0041): each by the towns of one country along it, so
  // "Pyrenees" is searched at the range's extent, as a region is; a range across a border is listed
  // with the side its best-known climbs are ridden from.
  {
    name: 'Pyrenees',
    aliases: ['Pyrénées', 'Pirineos', 'Pirineus', 'Pyrenees mountains'],
    kind: 'region',
    countryCode: 'FR',
    towns: [
      'Saint-Jean-Pied-de-Port',
      'Argelès-Gazost',
      'Saint-Lary-Soulan',
      'Bagnères-de-Luchon',
      'Ax-les-Thermes',
      'Prades',
    ],
  },
  {
    name: 'Vosges',
    aliases: ['Vosges mountains', 'Vogesen'],
    kind: 'region',
    countryCode: 'FR',
    towns: ['Gérardmer', 'Saint-Dié-des-Vosges', 'Remiremont', 'Thann', 'Guebwiller', 'Munster'],
  },
  {
    name: 'Sierra Nevada',
    aliases: [],
    kind: 'region',
    countryCode: 'ES',
    towns: ['Lanjarón', 'Órgiva', 'Guadix', 'Monachil'],
  },
  {
    name: 'Jura',
    aliases: ['Jura mountains', 'Massif du Jura'],
    kind: 'region',
    countryCode: 'FR',
    towns: ['Pontarlier', 'Morez', 'Saint-Claude', 'Oyonnax', 'Morteau'],
  },
  {
    name: 'Massif Central',
    aliases: [],
    kind: 'region',
    countryCode: 'FR',
    towns: ['Aurillac', 'Le Puy-en-Velay', 'Murat', 'Saint-Flour', 'Mende', 'Millau'],
  },
  {
    name: 'Tuscany',
    aliases: ['Toscana'],
    kind: 'region',
    countryCode: 'IT',
    towns: ['Florence', 'Siena', 'Pisa', 'Lucca', 'Arezzo', 'Grosseto', 'Montepulciano'],
  },
  {
    name: 'Chianti',
    aliases: [],
    kind: 'region',
    countryCode: 'IT',
    towns: ['Greve in Chianti', 'Castellina in Chianti', 'Gaiole in Chianti', 'Castelnuovo Berardenga'],
  },
  {
    name: 'Corsica',
    aliases: ['Corse'],
    kind: 'island',
    countryCode: 'FR',
    towns: ['Ajaccio', 'Bastia', 'Porto-Vecchio', 'Calvi', 'Corte', 'Propriano'],
  },
  {
    name: 'Provence',
    aliases: [],
    kind: 'region',
    countryCode: 'FR',
    towns: [
      'Avignon',
      'Aix-en-Provence',
      'Arles/93',
      'Carpentras',
      'Apt',
      'Manosque',
      'Forcalquier',
      'Bédoin',
    ],
  },
  {
    name: 'Alsace',
    aliases: ['Elsass'],
    kind: 'region',
    countryCode: 'FR',
    towns: ['Strasbourg', 'Colmar', 'Mulhouse', 'Haguenau', 'Sélestat', 'Obernai', 'Saverne', 'Guebwiller'],
  },
  {
    name: 'Burgundy',
    aliases: ['Bourgogne'],
    kind: 'region',
    countryCode: 'FR',
    towns: ['Dijon', 'Beaune', 'Nuits-Saint-Georges', 'Chalon-sur-Saône', 'Mâcon', 'Auxerre', 'Nevers'],
  },
  {
    name: 'Flanders',
    aliases: ['Vlaanderen', 'Flandre', 'Flemish Ardennes', 'Vlaamse Ardennen'],
    kind: 'region',
    countryCode: 'BE',
    towns: ['Brugge', 'Gent', 'Kortrijk', 'Oudenaarde', 'Ieper', 'Geraardsbergen', 'Roeselare', 'Ronse'],
  },
  {
    name: 'Ardennes',
    aliases: ['Ardennen'],
    kind: 'region',
    countryCode: 'BE',
    towns: [
      'Bastogne',
      'La Roche-en-Ardenne',
      'Houffalize',
      'Spa',
      'Stavelot',
      'Bouillon',
      'Durbuy',
      'Marche-en-Famenne',
    ],
  },
  {
    name: 'Black Forest',
    aliases: ['Schwarzwald'],
    kind: 'region',
    countryCode: 'DE',
    towns: ['Freiburg/01', 'Titisee-Neustadt', 'Triberg', 'Baden-Baden', 'Freudenstadt', 'Furtwangen'],
  },
  {
    name: 'Lake District',
    aliases: [],
    kind: 'region',
    countryCode: 'GB',
    towns: ['Keswick', 'Ambleside', 'Windermere', 'Cockermouth'],
  },
  {
    name: 'Peak District',
    aliases: [],
    kind: 'region',
    countryCode: 'GB',
    towns: ['Bakewell', 'Buxton', 'Matlock', 'Glossop', 'Hathersage'],
  },
  {
    name: 'Yorkshire Dales',
    aliases: [],
    kind: 'region',
    countryCode: 'GB',
    towns: ['Skipton', 'Settle', 'Leyburn', 'Grassington'],
  },
  {
    name: 'Cotswolds',
    aliases: [],
    kind: 'region',
    countryCode: 'GB',
    towns: ['Cirencester', 'Stow on the Wold', 'Chipping Norton', 'Moreton in Marsh', 'Burford'],
  },
  {
    name: 'Cairngorms',
    aliases: ['Cairngorm Mountains', 'Cairngorms National Park'],
    kind: 'region',
    countryCode: 'GB',
    towns: ['Aviemore', 'Kingussie', 'Newtonmore', 'Ballater'],
  },
  {
    name: 'Isle of Wight',
    aliases: [],
    kind: 'island',
    countryCode: 'GB',
    towns: ['Newport/ENG', 'Ryde', 'Cowes', 'Sandown', 'Ventnor'],
  },
  {
    name: 'Algarve',
    aliases: [],
    kind: 'region',
    countryCode: 'PT',
    towns: ['Faro', 'Lagos', 'Portimão', 'Tavira', 'Albufeira', 'Loulé'],
  },
  {
    name: 'Madeira',
    aliases: [],
    kind: 'island',
    countryCode: 'PT',
    towns: ['Funchal', 'Machico', 'Santana', 'Calheta/10', 'Porto Moniz', 'Ribeira Brava'],
  },
  {
    name: 'Crete',
    aliases: ['Kriti'],
    kind: 'island',
    countryCode: 'GR',
    towns: ['Irákleion', 'Chania', 'Rethymno', 'Agios Nikolaos/ESYE43', 'Ierapetra'],
  },
  {
    name: 'Maui',
    aliases: [],
    kind: 'island',
    countryCode: 'US',
    towns: ['Kahului', 'Wailuku', 'Lahaina', 'Kihei', 'Makawao'],
  },
  {
    name: 'Napa Valley',
    aliases: [],
    kind: 'region',
    countryCode: 'US',
    towns: ['Napa/CA', 'Yountville', 'Saint Helena/CA', 'Calistoga'],
  },
  {
    name: 'Vancouver Island',
    aliases: [],
    kind: 'island',
    countryCode: 'CA',
    towns: ['Victoria/02', 'Nanaimo', 'Campbell River', 'Courtenay', 'Port Alberni'],
  },
  {
    name: 'Tasmania',
    aliases: [],
    kind: 'island',
    countryCode: 'AU',
    towns: ['Hobart', 'Launceston', 'Devonport/06', 'Burnie', 'Queenstown/06'],
  },
];
