/** Where `npm start` listens: the first rows of the "Server and addresses" table. */
import { setting } from './setting-field.ts';
import { anyText, wholeNumber } from './text-readers.ts';

export const SERVER_SETTINGS = {
  PORT: setting({
    group: 'server',
    shownDefault: '`3000`',
    description: 'Port of `npm start`',
    accepts: 'a port number from 0 to 65535',
    parse: wholeNumber(0, 65_535),
    fallback: 3000,
  }),
  HOST: setting<string | undefined>({
    group: 'server',
    shownDefault: 'every interface (IPv4 and IPv6)',
    description: 'Address `npm start` listens on, e.g. `127.0.0.1`',
    accepts: 'a host name or address',
    parse: anyText,
    fallback: undefined,
  }),
};
