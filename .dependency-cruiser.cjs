/**
 * Module boundaries, checked by `npm run lint` (docs/ARCHITECTURE.md, "Who may import what").
 * Tests are held to the same package rules as the code beside them, except that they may use
 * tests/support.
 */
const modules = '^server/src/modules/([^/]+)/';

/**
 * The feature modules from the bottom up: a module may use the modules before it in this list,
 * never one after it, so modules cannot form a cycle (kyc ⇄ auth, wallet ⇄ orders). What a lower
 * module needs of a higher one (the profile's identity state, say) is passed in by the
 * composition root, server/src/main/compose.ts.
 */
const layers = [
  'ledger',
  'auth',
  'uploads',
  'content',
  'market',
  'drawings',
  'kyc',
  'orders',
  'wallet',
  'savings',
  'alerts',
  'operator',
  'app',
];
const layerRules = layers.slice(0, -1).map((name, i) => ({
  name: `layers-${name}`,
  comment: `modules/${name} may use only the modules below it: ${layers.slice(0, i).join(', ') || 'none'}.`,
  severity: 'error',
  from: { path: `^server/src/modules/${name}/` },
  to: { path: `^server/src/modules/(${layers.slice(i + 1).join('|')})/` },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'infra-stands-alone',
      comment:
        'infra/ (Db, Bus, Logger, migrations) is what the server and the simulator both stand on: it imports neither, nor the client.',
      severity: 'error',
      from: { path: '^infra/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(server|market-sim|client)/' },
    },
    {
      name: 'sim-never-imports-server',
      comment:
        'The simulator owns the tape and depends on infra/ and shared/ only; the server reads the tape through the simulator, never the other way round.',
      severity: 'error',
      from: { path: '^market-sim/src/' },
      to: { path: '^(server|client)/' },
    },
    {
      name: 'server-reads-sim-through-its-index',
      comment:
        'Server code reaches the simulator through market-sim/src/index.ts (its public surface), and only from the market module and the entry points.',
      severity: 'error',
      from: {
        path: '^server/src/',
        pathNot: ['^server/src/(modules/market|main)/', '\\.test\\.ts$'],
      },
      to: { path: '^market-sim/src/' },
    },
    {
      name: 'sim-public-surface',
      comment: 'Only market-sim/src/index.ts is the simulator seen from the server.',
      severity: 'error',
      from: { path: '^server/src/', pathNot: '\\.test\\.ts$' },
      to: { path: '^market-sim/src/', pathNot: '^market-sim/src/index\\.ts$' },
    },
    {
      name: 'routes-never-import-repos',
      comment:
        'Routes are thin: validate, authorise, call a service, present. SQL lives in repos, called by services.',
      severity: 'error',
      from: { path: '\\.routes\\.ts$' },
      to: { path: '\\.repo\\.ts$' },
    },
    {
      name: 'no-other-modules-repo',
      comment:
        "A module reaches another module through that module's service (its index.ts), never through its repo.",
      severity: 'error',
      from: { path: modules, pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/modules/[^/]+/.+\\.repo\\.ts$', pathNot: '^server/src/modules/$1/' },
    },
    {
      name: 'no-module-cycles',
      comment:
        'No file depends on itself through others at run time (a type seen both ways is no cycle). Between modules the layers below keep the graph acyclic.',
      severity: 'error',
      from: { path: '^(server|market-sim|infra)/src/' },
      to: {
        circular: true,
        dependencyTypesNot: ['type-only'],
        viaOnly: { dependencyTypesNot: ['type-only'] },
      },
    },
    {
      name: 'no-shared-cycles',
      comment:
        "The contract (shared/src) has no circle at all, types included: a feature's value lists are leaves, its answer schemas (<feature>/answers.ts) build on them, and its types on those.",
      severity: 'error',
      from: { path: '^shared/src/' },
      to: { circular: true },
    },
    {
      name: 'platform-below-modules',
      comment: 'server/src/platform is below the modules: it never imports one.',
      severity: 'error',
      from: { path: '^server/src/platform/', pathNot: '\\.test\\.ts$' },
      to: { path: '^server/src/(modules|main|gateway)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
