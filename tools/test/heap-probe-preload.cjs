// Preloaded into a server under test (see heap-probe.ts): on SIGUSR2 it collects all garbage, then writes one
// line on stdout with the bytes still live (V8 heap plus memory outside it, Buffers among them). A leak check
// compares two such lines; RSS cannot be compared, since V8 and the C allocator give memory back to the
// system only when they choose to (on a loaded CI machine, not within 90 s).
process.on('SIGUSR2', () => {
  // Twice: the first collection runs finalizers whose objects only the second can free.
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, external } = process.memoryUsage();
  process.stdout.write(`heap-probe liveBytes=${heapUsed + external}\n`);
});
