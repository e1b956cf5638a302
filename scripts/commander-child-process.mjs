// commander requires node:child_process as it loads, for executable subcommands (`.command(name,
// description)`), which assess has none of: with it come net, dgram and Node's stream modules,
// ~2 ms of every command that sends nothing. Here commander gets the same module, required on
// its first use. Deleting this plugin (build.mjs, package.mjs) changes nothing but that.
export const commanderChildProcess = {
  name: 'commander-child-process',
  setup: (b) => {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'on-first-use', namespace: 'commander-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'commander-child-process' }, () => ({
      contents: "let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= require('node:child_process'))[k] });",
      loader: 'js',
    }));
  },
};
