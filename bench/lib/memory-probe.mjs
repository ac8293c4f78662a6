// Preloaded into the benchmark's server with `--memory-probe` (`node --import <this file>`): appends the main
// thread's process.memoryUsage() to the file named by MESHLENS_BENCH_MEMORY_LOG every 500 ms, one JSON line
// each, so that the idle RSS can be split into heap, external memory and the rest (threads, wasm, native).
// The server's stdout is its MCP transport: this writes only to the file.
import { appendFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setInterval } from 'node:timers';
import v8 from 'node:v8';

const file = process.env.MESHLENS_BENCH_MEMORY_LOG;
if (file) {
  // MiB, like the harness's reading of /proc/<pid>/status.
  const mb = (bytes) => Math.round((bytes / 1048576) * 100) / 100;
  const sample = () => {
    const m = process.memoryUsage();
    const line = {
      t: Math.round(performance.now()),
      rss: mb(m.rss),
      heapTotal: mb(m.heapTotal),
      heapUsed: mb(m.heapUsed),
      external: mb(m.external),
      arrayBuffers: mb(m.arrayBuffers),
      // Committed size of each V8 heap space: where heapTotal's slack over heapUsed sits.
      spaces: Object.fromEntries(
        v8.getHeapSpaceStatistics().map((space) => [space.space_name, mb(space.space_size)]),
      ),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  };
  setInterval(sample, 500).unref();
}
