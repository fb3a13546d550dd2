/** The TCP fault proxy (DESIGN §10.1): the library behind `arena proxy tcp` and a process target's per-agent proxy. */
export { startTcpProxy, type TcpProxy, type TcpProxyOptions, type TcpProxyStats, type TcpEndpoint } from './proxy.js';
export { startTcpFaultProxy, type TcpFaultProxy, type TcpFaultProxyOptions } from './control.js';
export { TCP_FAULT_TYPES, type TcpFaultSpec, type TcpFaultType } from './fault-spec.js';
export { parseHostPort } from './endpoint.js';
