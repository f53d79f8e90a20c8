// Loaded into a bench's server process (NODE_OPTIONS=--import, PROBE_OUT=<file>): when the process
// exits, writes to PROBE_OUT what the server itself saw of a load run: its event-loop delay (ms),
// the requests it began and answered (node:http's diagnostics channels), and when it accepted each
// connection (the client's port and the wall-clock ms), so the load client can tell how long each
// of its connections waited in the kernel's accept queue.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { Server } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const out = process.env.PROBE_OUT;
if (out) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const seen = { requests: 0, answered: 0 };
  /** [client port, accepted at (wall-clock ms)] of every connection. */
  const accepted = [];
  subscribe('http.server.request.start', () => seen.requests++);
  subscribe('http.server.response.finish', () => seen.answered++);
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (event, socket, ...rest) {
    if (event === 'connection') accepted.push([socket.remotePort, performance.timeOrigin + performance.now()]);
    return emit.call(this, event, socket, ...rest);
  };
  process.once('exit', () => {
    delay.disable();
    writeFileSync(out, JSON.stringify({ ...seen, loopDelayP99: delay.percentile(99) / 1e6, loopDelayMax: delay.max / 1e6, accepted }));
  });
}
