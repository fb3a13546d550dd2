/**
 * `GET /metrics` in the Prometheus text format: Toxiproxy's own byte
 * counters (`toxiproxy_proxy_received_bytes_total`, labels as in its
 * collectors/proxy.go) and two of the arena's (connections, active toxics).
 */
import type { ProxyCounters } from './collection.js';

const labelValue = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function metricsText(proxies: ProxyCounters[]): string {
  const lines: string[] = [];
  const family = (name: string, type: 'counter' | 'gauge', help: string, rows: Array<[string, number]>) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of rows) lines.push(`${name}{${labels}} ${value}`);
  };
  const sorted = [...proxies].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  family(
    'toxiproxy_proxy_received_bytes_total',
    'counter',
    'Bytes the proxy received, per direction (upstream = from clients).',
    sorted.flatMap((p) =>
      (['downstream', 'upstream'] as const).map((direction): [string, number] => [
        `direction="${direction}",listener="${labelValue(p.listen)}",proxy="${labelValue(p.name)}",upstream="${labelValue(p.upstream)}"`,
        p.received[direction],
      ]),
    ),
  );
  family(
    'arena_toxiproxy_connections_total',
    'counter',
    'Client connections the proxy accepted.',
    sorted.map((p) => [`proxy="${labelValue(p.name)}"`, p.connections]),
  );
  family(
    'arena_toxiproxy_toxics_active',
    'gauge',
    'Toxics on the proxy.',
    sorted.map((p) => [`proxy="${labelValue(p.name)}"`, p.toxics]),
  );
  return `${lines.join('\n')}\n`;
}
