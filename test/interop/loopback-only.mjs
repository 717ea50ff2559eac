/**
 * @module test/interop/loopback-only — preloaded (`node --import`) into servers that are not ours and listen
 * on every interface (server-everything's `app.listen(PORT)`): every TCP listen without a host is bound to
 * 127.0.0.1 instead, so tests never open a port beyond the machine.
 */
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    if (typeof args[1] !== 'string') args.splice(1, 0, '127.0.0.1');
  } else if (args[0] !== null && typeof args[0] === 'object' && !('path' in args[0])) args[0] = { ...args[0], host: '127.0.0.1' };
  return listen.apply(this, args);
};
