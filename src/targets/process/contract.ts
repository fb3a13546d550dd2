/** The arena's asynchronous target contract, as this target implements it. */
export type {
  ActiveFault,
  AgentInfo,
  FaultOptions,
  FaultReport,
  HealthReport,
  HealthScope,
  InvariantCheck,
  RuntimeProvider,
  Target,
  TargetDescription,
  TargetObserver,
  WorkloadCounters,
} from '../../arena/providers.js';
