import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_STRATEGY,
  RECOVERY_OFF_STRATEGY,
  loadStrategyFile,
  mergeStrategy,
  parseStrategy,
  parseStrategyPatch,
  parseStrategyText,
} from '../../../src/runtime/strategy.js';
import { UsageError } from '../../../src/shared/errors.js';

const file = (name: string) => fileURLToPath(new URL(`../../../strategies/${name}`, import.meta.url));

describe('strategy', () => {
  it('has every mechanism on by default and off in RECOVERY_OFF_STRATEGY', () => {
    for (const section of [
      'supervisor',
      'election',
      'failover',
      'checkpoints',
      'integrity',
      'llm',
      'tools',
      'mcp',
      'dag',
    ] as const) {
      expect(DEFAULT_STRATEGY[section].enabled).toBe(true);
      expect(RECOVERY_OFF_STRATEGY[section].enabled).toBe(false);
    }
    expect(RECOVERY_OFF_STRATEGY.workload.enabled).toBe(true);
  });

  it('ships files equal to the built-in strategies', async () => {
    expect(await loadStrategyFile(file('default.yaml'))).toEqual(DEFAULT_STRATEGY);
    expect(await loadStrategyFile(file('recovery-off.yaml'))).toEqual(RECOVERY_OFF_STRATEGY);
  });

  it('parses durations with units and fills the rest from the default', () => {
    const s = parseStrategyText('election:\n  lease_ms: 1s\n  renew_interval_ms: 100\nworkload: { rate: 5 }\n');
    expect(s.election.lease_ms).toBe(1000);
    expect(s.election.renew_interval_ms).toBe(100);
    expect(s.workload.rate).toBe(5);
    expect(s.supervisor).toEqual(DEFAULT_STRATEGY.supervisor);
  });

  it('rejects unknown keys and bad types, listing every problem with its path', () => {
    let caught: unknown;
    try {
      parseStrategy(
        {
          supervisor: { enabled: 'yes', backof_ms: 5 },
          elections: {},
          dag: { recovery: 'pray' },
          tools: { timeout_ms: '-3s' },
        },
        'x.yaml',
      );
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const message = (caught as Error).message;
    expect(message).toContain('x.yaml');
    expect(message).toContain('supervisor.enabled: must be true or false');
    expect(message).toContain('supervisor.backof_ms: unknown key');
    expect(message).toContain('elections: unknown section');
    expect(message).toContain('dag.recovery: must be one of retry, replace_node, fail_fast');
    expect(message).toContain('tools.timeout_ms: must be a duration');
  });

  it('rejects relations that cannot work', () => {
    expect(() => parseStrategy({ election: { lease_ms: 50, renew_interval_ms: 100 } })).toThrow(
      /renew_interval_ms: must be shorter/,
    );
    expect(() => parseStrategy({ failover: { heartbeat_timeout_ms: 0 } })).toThrow(/greater than 0/);
    expect(() => parseStrategy('nope')).toThrow(UsageError);
    expect(() => parseStrategyText('a: [')).toThrow(/not valid YAML/);
  });

  it('reports broken relations together with unknown keys, not only once the keys are fixed', () => {
    const text = 'election:\n  lease_ms: 50\n  renew_interval_ms: 100\n  leese: 1\nsupervisr: {}\n';
    const message = (() => {
      try {
        parseStrategyText(text, 'both.yaml');
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    })();
    expect(message).toMatch(/both\.yaml:4:3 election\.leese: unknown key/);
    expect(message).toMatch(/both\.yaml:5:1 supervisr: unknown section/);
    expect(message).toMatch(/both\.yaml:3:22 election\.renew_interval_ms: must be shorter than election\.lease_ms/);
    // a patch applied to a running strategy: the relation is judged against that strategy
    const base = mergeStrategy(DEFAULT_STRATEGY, { election: { lease_ms: 80 } });
    expect(() =>
      parseStrategyPatch({ election: { renew_interval_ms: 90 }, tools: { nope: 1 } }, 'patch', base),
    ).toThrow(/tools\.nope: unknown key[\s\S]*election\.renew_interval_ms: must be shorter/);
    // a value of the wrong type leaves no meaning to check relations on: only it is reported
    expect(() => parseStrategy({ election: { lease_ms: 'x', renew_interval_ms: 100 }, bogus: {} })).not.toThrow(
      /must be shorter/,
    );
  });

  it('names the line:column of every problem in strategy text, and of syntax errors', () => {
    const text = 'election:\n  lease_ms: soon\nsupervisr: {}\ntools:\n  timout_ms: 5\n';
    let caught: unknown;
    try {
      parseStrategyText(text, 'bad.yaml');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const lines = (caught as Error).message.split('\n');
    expect(lines[0]).toBe('bad.yaml: invalid strategy: 3 problems');
    expect(lines[1]).toMatch(/^  bad\.yaml:2:13 election\.lease_ms: must be a duration/);
    expect(lines[2]).toMatch(/^  bad\.yaml:3:1 supervisr: unknown section/);
    expect(lines[3]).toMatch(/^  bad\.yaml:5:3 tools\.timout_ms: unknown key/);
    // relations point at the field that has to change
    expect(() => parseStrategyText('election:\n  lease_ms: 500\n  renew_interval_ms: 900\n', 's.yaml')).toThrow(
      /s\.yaml:3:22 election\.renew_interval_ms: must be shorter/,
    );
    expect(() => parseStrategyText('llm:\n  retries: [\n', 's.yaml')).toThrow(/not valid YAML:\n  s\.yaml:\d+:\d+ /);
    expect(() => parseStrategyText('llm: {}\nllm: {}\n', 's.yaml')).toThrow(/s\.yaml:2:1 .*unique/);
  });

  it('rejects alias bombs and oversized text instead of expanding them', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(', ')}]`,
      ),
    ].join('\n');
    expect(() => parseStrategyText(bomb, 'bomb.yaml')).toThrow(/bomb\.yaml: not valid YAML:\n.*alias/i);
    expect(() => parseStrategyText(`# ${'x'.repeat(1024 * 1024)}\n`, 'big.yaml')).toThrow(/limit is 1048576/);
  });

  it('merges without modifying its inputs', () => {
    const merged = mergeStrategy(DEFAULT_STRATEGY, { llm: { fallback: false } });
    expect(merged.llm.fallback).toBe(false);
    expect(merged.llm.retries).toBe(DEFAULT_STRATEGY.llm.retries);
    expect(DEFAULT_STRATEGY.llm.fallback).toBe(true);
  });
});
