export * from './session.js';
export * from './disruptive.js';
