export { createAgentMemory, type AgentMemory } from './memory.js';
