// Preloaded into the built agent CLI (`node -r`) by the orphan test: once the CLI reports a connected
// server on stderr, an exception is thrown from a timer, i.e. an uncaught crash of the CLI's own process.
const write = process.stderr.write.bind(process.stderr);
let armed = false;
process.stderr.write = (chunk, ...rest) => {
  if (!armed && String(chunk).includes('  ok ')) {
    armed = true;
    setTimeout(() => {
      throw new Error('simulated crash of agent-cli');
    }, 200);
  }
  return write(chunk, ...rest);
};
