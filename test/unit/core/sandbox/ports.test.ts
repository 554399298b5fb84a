// The words and lines of ports across the sandbox (sandbox/ports.ts): /proc/net/tcp as the kernel
// writes it, the messages the relay and the forwards exchange (untrusted either way), the result's line.
import * as assert from 'node:assert/strict';
import { describeForwards, dialAddress, loopbackPorts, parseListeners, parseMessage } from '../../../../src/core/sandbox/ports';

// Read off this machine's /proc/net/tcp and tcp6 (a listener on 127.0.0.1:8766, one on ::1:8765, one on 0.0.0.0:22, a connection).
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:223E 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1245079 1 0000000073723180 100 0 0 10 0
   1: 00000000:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 20871 1 0000000000000000 100 0 0 10 0
   2: 0100007F:223E 0100007F:C2A6 01 00000000:00000000 00:00000000 00000000  1000        0 0 1 0000000000000000 20 4 30 10 -1
`;
const TCP6 = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:223D 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1245078 1 00000000567e0ae4 100 0 0 10 0
   1: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0 100 0 0 10 0
   2: 0000000000000000FFFF00000100007F:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1 1 0 100 0 0 10 0
`;

describe('sandbox ports', () => {
  it('reads the listening sockets of /proc/net/tcp and tcp6, and not the connections', () => {
    assert.deepEqual(parseListeners(TCP), [{ address: '127.0.0.1', port: 8766 }, { address: '0.0.0.0', port: 22 }]);
    assert.deepEqual(parseListeners(TCP6), [{ address: '::1', port: 8765 }, { address: '::', port: 8080 }, { address: '127.0.0.1', port: 8081 }]);
    assert.deepEqual(parseListeners('header\nnot a line\n  0: XYZ:0016 00000000:0000 0A\n'), []);
  });

  it('keeps the ports that take loopback connections, from 1024 up unless told otherwise, but those excluded', () => {
    const all = [...parseListeners(TCP), ...parseListeners(TCP6), { address: '10.0.0.5', port: 9000 }];
    assert.deepEqual(loopbackPorts(all), [8080, 8081, 8765, 8766]);
    assert.deepEqual(loopbackPorts(all, new Set([8080])), [8081, 8765, 8766]);
    assert.deepEqual(loopbackPorts(all, new Set(), 1), [22, 8080, 8081, 8765, 8766]);
    assert.equal(dialAddress({ address: '::', port: 1 }), '::1');
    assert.equal(dialAddress({ address: '0.0.0.0', port: 1 }), '127.0.0.1');
    assert.equal(dialAddress({ address: '127.0.0.2', port: 1 }), '127.0.0.2');
  });

  it('parses only well-formed messages: whatever the other side sends is untrusted', () => {
    assert.deepEqual(parseMessage('{"listening":[{"address":"127.0.0.1","port":8000}],"sync":3}'), { listening: [{ address: '127.0.0.1', port: 8000 }], sync: 3 });
    assert.deepEqual(parseMessage('{"open":1,"address":"::1","port":8000}'), { open: 1, address: '::1', port: 8000 });
    assert.deepEqual(parseMessage('{"stream":7}'), { stream: 7 });
    assert.deepEqual(parseMessage('{"sync":2}'), { sync: 2 });
    for (const bad of ['', 'null', '[]', '{"listening":[{"address":1,"port":8000}]}', '{"listening":[{"address":"x","port":-1}]}', '{"stream":"7"}', '{"open":1.5,"address":"a","port":1}', `{"listening":[{"address":"${'a'.repeat(46)}","port":1}]}`]) {
      assert.equal(parseMessage(bad), undefined, bad);
    }
  });

  it('says which ports are reachable on this machine, and why the others are not', () => {
    assert.equal(describeForwards([]), undefined);
    assert.equal(describeForwards([{ port: 3000, state: 'forwarded' }, { port: 5173, state: 'forwarded' }]), 'Listening, reachable on this machine while it runs: http://127.0.0.1:3000, http://127.0.0.1:5173.');
    assert.equal(
      describeForwards([{ port: 80, state: 'privileged' }, { port: 3000, state: 'taken' }]),
      'Listening on 3000, not reachable outside the sandbox: another program already listens on that port on this machine; listening on 80, not reachable outside the sandbox: ports below 1024 are not forwarded; listen on a higher one.',
    );
  });
});
