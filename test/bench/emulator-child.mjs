// The emulator side of a loopback bench, run in a forked child so its CPU time is measured apart
// from the client's. It sends the parent its base URL and Basic credentials (plus what `extra`
// returns for the started emulator); the message 'mark' starts the CPU meter, any other message
// reports the emulator's CPU time since the mark and stops it.
export async function serveEmulatorToParent(extra = () => ({})) {
  const { startEmulator } = await import('../../dist/src/emulator/index.js');
  // SVC_BENCH_STATE=FILE: the emulator saves every change there (--state), as `emulator start --state` does.
  const statePath = process.env.SVC_BENCH_STATE;
  const emu = await startEmulator({ port: 0, ...(statePath ? { statePath } : {}) });
  process.send({
    baseUrl: emu.baseUrl,
    auth: `Basic ${Buffer.from(`${emu.apiTokenId}:${emu.apiClientSecret}`).toString('base64')}`,
    ...extra(emu),
  });
  let mark = process.cpuUsage();
  process.on('message', async (message) => {
    if (message === 'mark') {
      mark = process.cpuUsage();
      return;
    }
    const used = process.cpuUsage(mark);
    process.send({ cpuMs: (used.user + used.system) / 1000 });
    await emu.close();
    process.exit(0);
  });
}
