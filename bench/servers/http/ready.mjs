// Child-process side of bench/http.mjs: report the port, and answer heap requests (after gc) over IPC.
export function ready(port) {
  process.on('message', (m) => {
    if (m === 'heap') {
      for (let i = 0; i < 4; i++) globalThis.gc?.();
      process.send({ heapUsed: process.memoryUsage().heapUsed });
    }
  });
  process.on('disconnect', () => process.exit(0));
  process.send({ port });
}
