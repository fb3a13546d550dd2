// The example fleet with a planted bug (catch-up.mjs): examples/fleet's own pm2
// apps, run unchanged from there, except that each worker loads catch-up.mjs
// first. The workers keep their journals and pid files in examples/fleet/run,
// where the front door audits them.
const path = require('node:path');
const { apps } = require('../fleet/ecosystem.config.cjs');

const catchUp = `--import ${path.join(__dirname, 'catch-up.mjs')}`;
module.exports = {
  apps: apps.map((app) => (app.name.startsWith('worker-') ? { ...app, node_args: catchUp } : app)),
};
