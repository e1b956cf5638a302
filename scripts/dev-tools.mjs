// The build's tools (esbuild, acorn, postject…) are development dependencies: a fresh clone has
// none of them until `npm ci`. The scripts load them through here, so a missing one is one line
// saying what to run instead of Node's module-resolution stack trace.

/** What was being run, as the user typed it (npm names the script it runs for a lifecycle step). */
function step() {
  const event = process.env.npm_lifecycle_event;
  if (event === 'prepack' || event === 'prepare') return 'npm pack';
  if (event === 'pretest' || event === 'test') return 'npm test';
  return event
    ? `npm run ${event}`
    : `node ${process.argv[1]?.replace(/^.*\/(scripts\/)/, '$1') ?? 'scripts/build.mjs'}`;
}

/** `await devImport(() => import('esbuild'))`: the module, or exit 1 with one line when it is not installed. */
export async function devImport(load) {
  try {
    return await load();
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' && err?.code !== 'MODULE_NOT_FOUND') throw err;
    const name = /Cannot find (?:package|module) '([^']+)'/.exec(String(err.message))?.[1] ?? 'a build tool';
    console.error(
      `${step()}: ${name} is not installed: run \`npm ci\` first (it installs the tools the build uses), then ` +
        `\`${step()}\` again`,
    );
    process.exit(1);
  }
}
