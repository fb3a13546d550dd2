/**
 * The one door to the `zod` package. zod ships as some 95 ES module files, and resolving, reading
 * and compiling them was most of `arena scenario validate`'s start-up; the build
 * (scripts/bundle-vendor.mjs) therefore replaces dist/vendor/zod.js with a door to a single-file bundle of
 * the same package, same exports. Tests and type checks see the package itself through this
 * re-export.
 */
export * from 'zod';
