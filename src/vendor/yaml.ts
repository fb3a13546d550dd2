/**
 * The one door to the `yaml` package. yaml ships as some 70 CommonJS files, and loading them was
 * more than half of `arena scenario validate`'s start-up; the build (scripts/bundle-vendor.mjs)
 * therefore replaces dist/vendor/yaml.js with a door to a single-file bundle of the same package, same
 * exports. Tests and type checks see the package itself through this re-export.
 */
export * from 'yaml';
