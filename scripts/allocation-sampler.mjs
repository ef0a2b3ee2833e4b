// A lab tool for the service's allocation (docs/notes/performance-lab.md, "Issue 48 on a shared machine"):
// loaded into `node dist/src/main.js` through NODE_OPTIONS=--import=./scripts/allocation-sampler.mjs (other
// processes that inherit it do nothing), it appends to ALLOC_OUT every 250 ms the bytes V8 allocated
// (used heap before each GC minus used after the previous one) and the sessions the collector has
// claimed so far (the rows its claim statement updated), e.g. under BENCH_ONLY=memory node dist/bench/run.js.
import v8 from 'node:v8';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
if (process.argv[1]?.endsWith('src/main.js')) {
  const pg = createRequire(`${process.cwd()}/package.json`)('pg');
  // Sessions the collector claimed: the rows its claim statement updated.
  let claimed = 0;
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    if (typeof config?.text === 'string' && config.text.startsWith('UPDATE sessions SET last_collected_at = $1')) {
      const callback = rest.at(-1);
      if (typeof callback === 'function') {
        rest[rest.length - 1] = (error, result) => {
          if (result) claimed += result.rowCount ?? 0;
          callback(error, result);
        };
      }
    }
    return query.call(this, config, ...rest);
  };
  let profiler = new v8.GCProfiler();
  profiler.start();
  let lastAfter = v8.getHeapStatistics().used_heap_size;
  const out = process.env.ALLOC_OUT ?? 'allocation.log';
  setInterval(() => {
    const { statistics } = profiler.stop();
    profiler = new v8.GCProfiler();
    profiler.start();
    let allocated = 0;
    for (const gc of statistics) {
      allocated += gc.beforeGC.heapStatistics.usedHeapSize - lastAfter;
      lastAfter = gc.afterGC.heapStatistics.usedHeapSize;
    }
    const now = v8.getHeapStatistics().used_heap_size;
    allocated += now - lastAfter;
    lastAfter = now;
    const rss = process.memoryUsage().rss;
    const stamp = Date.now();
    appendFileSync(
      out,
      `${stamp} ${(allocated / 1e6).toFixed(2)} MB ${statistics.length} gcs rss ${(rss / 2 ** 20).toFixed(0)} claimed ${claimed}\n`,
    );
  }, 250).unref();
}
