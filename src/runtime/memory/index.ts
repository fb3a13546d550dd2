export { createAgentMemory, type AgentMemory, type AgentMemoryOptions, type MemoryVerification } from './memory.js';
