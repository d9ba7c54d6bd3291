// A validating admission webhook in its own process, for the webhook figure: HTTPS (a certificate for
// 127.0.0.1 from its own CA), allowing every AdmissionReview it gets after reading its object, as a typical
// kubebuilder validator that finds nothing wrong does.
// Receives { dir } over IPC (where to keep its certificates), replies { port, caBundle }; exits on 'close'.
import https from 'node:https';
import { ensureCertificates } from '../dist/auth/certs.js';

process.on('disconnect', () => process.exit(1));

process.once('message', async ({ dir }) => {
  const certs = await ensureCertificates(dir, { hosts: ['127.0.0.1'] });
  const server = https.createServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString());
      const allowed = typeof review.request?.object?.spec === 'object';
      const body = JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request.uid, allowed } });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port, caBundle: Buffer.from(certs.caCert).toString('base64') }));
  process.on('message', (m) => {
    if (m === 'close') server.close(() => process.exit(0)).closeAllConnections();
  });
});
