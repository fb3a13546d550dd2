/** Config problems print like workflow and strategy problems: one shared formatter. */
export { formatSourceProblems as formatConfigProblems } from '../shared/yaml-source.js';
