// The baseline: bare node:http in its own process.
//   GET  -> JSON.stringify of a fixed object (the same custom resource our server returns), 200.
//   POST -> read the body, JSON.parse + JSON.stringify it, 201 with the result.
// Receives { object } over IPC, replies { port } once listening; exits on 'close'.
import http from 'node:http';

// Never outlive the benchmark (it may have failed or been interrupted).
process.on('disconnect', () => process.exit(1));

process.once('message', ({ object }) => {
  const server = http.createServer((req, res) => {
    if (req.method === 'GET') {
      const body = JSON.stringify(object);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const text = chunks.length === 1 ? chunks[0].toString() : Buffer.concat(chunks).toString();
      const body = JSON.stringify(JSON.parse(text));
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
  process.on('message', (m) => {
    if (m === 'close') server.close(() => process.exit(0)).closeAllConnections();
  });
});
