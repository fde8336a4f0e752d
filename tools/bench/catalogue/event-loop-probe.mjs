// Loaded into the gateway process with `node --import` by the catalogue benchmark, so the gateway itself
// carries no benchmark code. On each SIGUSR2 it prints the event-loop delay since the previous signal
// (perf_hooks.monitorEventLoopDelay, 1 ms resolution) as one line, and starts a new window.
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 1 });
histogram.enable();
const ms = (nanoseconds) => (nanoseconds / 1e6).toFixed(1);
process.on('SIGUSR2', () => {
  process.stdout.write(
    `event_loop_delay p50=${ms(histogram.percentile(50))} p99=${ms(histogram.percentile(99))} max=${ms(histogram.max)}\n`,
  );
  histogram.reset();
});
