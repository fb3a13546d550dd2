export {
  createEmbeddedTarget,
  embeddedTargetFactory,
  getEmbeddedRuntime,
  type EmbeddedTargetOptions,
} from './target.js';
