/** The Toxiproxy-compatible API over the arena's TCP proxy (DESIGN §17): the library behind `arena toxiproxy`. */
export { startToxiproxyServer, type ToxiproxyServer, type ToxiproxyServerOptions } from './server.js';
export { createToxiproxyHandler, TOXIPROXY_VERSION, type ToxiproxyHandlerOptions } from './handler.js';
export { ToxiproxyCollection, type ProxyJson, type ToxicJson } from './collection.js';
