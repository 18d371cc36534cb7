// Preloaded into app processes that tests spawn: a server given only a port binds to loopback,
// never to every interface.
import * as net from 'node:net';

type Listen = (...args: unknown[]) => net.Server;
const listen = net.Server.prototype.listen as Listen;
(net.Server.prototype as unknown as { listen: Listen }).listen = function listenOnLoopback(this: net.Server, ...args: unknown[]) {
  if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) args.splice(1, 0, '127.0.0.1');
  return listen.apply(this, args);
};
