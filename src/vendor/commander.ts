/**
 * The one door to the `commander` package. commander ships as seven CommonJS files behind an ES
 * module wrapper, all loaded at every start; the build (scripts/bundle-vendor.mjs) therefore
 * replaces dist/vendor/commander.js with a door to a single-file bundle of the same package, same exports.
 * Tests and type checks see the package itself through this re-export.
 */
export * from 'commander';
