/** The arena's asynchronous target contract, as this target implements it. */
export type {
  ActiveFault,
  AgentLocation,
  FaultOptions,
  FaultReport,
  HealthReport,
  HealthScope,
  InvariantCheck,
  RuntimeProvider,
  Target,
  TargetObserver,
  WorkloadCounters,
} from '../../arena/providers.js';
