/**
 * `chaos-arena/server`: the HTTP API (DESIGN §7) as a library: serve a root container, or build the
 * app and listen yourself. `bootstrap` (the root container) and `serveRoot` are also in the root.
 */
export { createApp, ROUTE_GROUPS, type App, type AppOptions } from './app.js';
export { listen, type ListenOptions, type ServerHandle } from './listen.js';
export { serveRoot, isLoopbackHost, type ServeOptions, type RunningServer } from './serve.js';
