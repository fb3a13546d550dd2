import { ConflictError, NotFoundError, UsageError } from '../shared/errors.js';
import type { AgentFactory, StepAgent, StepDefinition } from './types.js';

/** Maps agent types to the factories that build the agents executing steps. */
export class AgentRegistry {
  private readonly factories = new Map<string, AgentFactory>();

  register(type: string, factory: AgentFactory): this {
    if (typeof type !== 'string' || type.trim() === '') throw new UsageError('agent type must be a non-empty string');
    if (typeof factory !== 'function') throw new UsageError(`factory for agent type '${type}' must be a function`);
    if (this.factories.has(type)) {
      throw new ConflictError(`agent type '${type}' is already registered`, { code: 'agent_type_exists' });
    }
    this.factories.set(type, factory);
    return this;
  }

  resolve(type: string): AgentFactory {
    const factory = this.factories.get(type);
    if (!factory) {
      throw new NotFoundError(`unknown agent type '${type}' (registered: ${this.types().join(', ') || 'none'})`, {
        code: 'unknown_agent_type',
      });
    }
    return factory;
  }

  has(type: string): boolean {
    return this.factories.has(type);
  }

  types(): string[] {
    return [...this.factories.keys()].sort();
  }

  /** builds a fresh agent for `step` from its type's factory */
  create(step: StepDefinition): StepAgent {
    return this.resolve(step.agent_type)(step);
  }
}
