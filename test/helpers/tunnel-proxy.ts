/**
 * An HTTP proxy on 127.0.0.1 for HTTP_PROXY/HTTPS_PROXY tests: it tunnels every CONNECT to one
 * local port, whatever host the client asked for, so a remote-looking host name is never resolved
 * and nothing leaves this machine (or refuses every CONNECT with a chosen status). It records each CONNECT target; a request in absolute form
 * (a proxy that forwards instead of tunnelling) is recorded too and refused with 502.
 */
import { createServer } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface TunnelProxy {
  /** http://127.0.0.1:PORT, the value for HTTP_PROXY / HTTPS_PROXY. */
  url: string;
  /** host:port of each CONNECT, in order. */
  connects: string[];
  /** The request line's target of each request sent to the proxy without CONNECT. */
  forwarded: string[];
  close(): Promise<void>;
}

/** `refuse`: answer every CONNECT with this status instead of tunnelling (a proxy whose rules say no). */
export async function startTunnelProxy(targetPort: number, { refuse }: { refuse?: number } = {}): Promise<TunnelProxy> {
  const connects: string[] = [];
  const forwarded: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((req, res) => {
    forwarded.push(req.url ?? '');
    res.statusCode = 502;
    res.end();
  });
  proxy.on('connect', (req, clientSocket: Socket, head: Buffer) => {
    connects.push(req.url ?? '');
    if (refuse !== undefined) {
      clientSocket.end(`HTTP/1.1 ${refuse} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1', () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    // A tunnel's sockets are no longer the server's: closeAllConnections() does not end them.
    for (const socket of [clientSocket, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    connects,
    forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
