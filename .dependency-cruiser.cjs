// The layering of DESIGN §1, checked in CI (`npm run lint:deps`). Each layer imports only the
// layers below it (and itself); no two folders of src/ import each other, directly or round about.
const LAYERS = [
  { name: 'kernel', folders: ['ids', 'clock', 'config', 'errors', 'logging', 'observability'] },
  { name: 'data', folders: ['database'] },
  { name: 'edge', folders: ['exchange', 'http', 'envelope', 'validation', 'rate-limiting', 'auth', 'idempotency', 'swagger', 'pagination'] },
  {
    name: 'domain',
    folders: ['customer-records', 'entitlements', 'products', 'customers', 'files', 'billing', 'webhooks', 'orders', 'subscriptions', 'imports', 'grant-rules', 'test-clock-records', 'test-clocks', 'license-records', 'licenses', 'audit', 'search', 'portal'],
  },
  { name: 'faces', folders: ['admin', 'dashboard', 'cli', 'health', 'demo'] },
];

const pathOf = (folders) => `^src/(${folders.join('|')})/`;
/** The CLI's entry point is start-up wiring (the app's layer): it hands the entity list to the CLI module. */
const APP_FILES_IN_FOLDERS = '^src/cli/main\\.ts$';
const everyLayerFolder = LAYERS.flatMap((layer) => layer.folders);

/** One rule per layer: nothing in it imports a layer above it (the app's root files included). */
const layerRules = LAYERS.map((layer, index) => ({
  name: `${layer.name}-imports-only-below`,
  comment: `The ${layer.name} layer imports only ${LAYERS.slice(0, index).map((below) => below.name).join(', ') || 'nothing of ours'} (DESIGN §1).`,
  severity: 'error',
  from: { path: pathOf(layer.folders), pathNot: APP_FILES_IN_FOLDERS },
  to: {
    path: '^src/',
    pathNot: [pathOf(LAYERS.slice(0, index + 1).flatMap((below) => below.folders))],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'every-folder-has-a-layer',
      comment: 'A new folder of src/ must be given its layer here.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: pathOf(everyLayerFolder) },
      to: {},
    },
    {
      name: 'domain-knows-no-platform-or-dashboard',
      comment: 'Domain modules read requests through the adapter-neutral exchange and never reach into the dashboard.',
      severity: 'error',
      from: { path: pathOf(LAYERS[3].folders) },
      to: { path: '^src/(http|dashboard)/' },
    },
    {
      name: 'no-folder-cycles',
      comment: 'Two folders of src/ that import each other (directly or through others) are one module in two places.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    exclude: { path: '^src/database/migrations/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // Type-only imports count: a layer must not know another's types either.
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
  },
};
