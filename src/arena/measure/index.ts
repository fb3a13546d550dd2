export * from './session.js';
export * from './disruptive.js';
export * from './snapshots.js';
