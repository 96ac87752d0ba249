/**
 * A client of `Expect: 100-continue` over a raw socket (undici and node:http hide the interim
 * answer): sends the head, sends the body only if invited by `100 Continue`, and resolves with
 * every status line the server sent, so a test can tell a refusal made before the body was invited
 * (`['HTTP/1.1 401']`) from one made after (`['HTTP/1.1 100', 'HTTP/1.1 401']`).
 */
import { connect } from 'node:net';

export function expectContinue(url: string, head: string, body: string): Promise<string[]> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let sentBody = false;
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      answer += d;
      if (!sentBody && answer.startsWith('HTTP/1.1 100')) {
        sentBody = true;
        socket.write(body);
      }
      if (/^HTTP\/1\.1 [2-5]\d\d/m.test(answer) && /\r\n\r\n\{.*\}$/s.test(answer)) socket.end();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer.match(/^HTTP\/1\.1 \d{3}/gm) ?? []));
    socket.write(head);
  });
}
