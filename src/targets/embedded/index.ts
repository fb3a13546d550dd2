export { createEmbeddedTarget, embeddedTargetFactory, getEmbeddedRuntime, type EmbeddedTargetOptions } from './target.js';
export { checkInvariants } from './observer.js';
