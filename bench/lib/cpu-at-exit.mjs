// bench/lib/cpu-at-exit — preloaded into a child (`node --import <this file> …`) whose CPU time the bench wants:
// at exit, the process's own user and system CPU seconds (process.resourceUsage(), every thread) go to stderr
// on one line `@@cpu {"userS": …, "systemS": …}`, which the bench reads back (bench/generator). `--import`
// preloads into worker threads as well (the generator compiles validators on some): only the main thread
// reports, at the process's exit, when every thread's time is in.
import { isMainThread } from 'node:worker_threads';

if (isMainThread)
  process.on('exit', () => {
    const u = process.resourceUsage();
    process.stderr.write(`\n@@cpu ${JSON.stringify({ userS: u.userCPUTime / 1e6, systemS: u.systemCPUTime / 1e6 })}\n`);
  });
