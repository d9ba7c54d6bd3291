// A conversion webhook's answer nested beyond the server's depth (issue 15) is refused as Go's decoder
// refuses it, before any walker sees the converted objects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startConversionWebhook, WEBHOOK_SERVICE_HOST } from '../fixtures/conversion-webhook.js';
import { postReview } from '../../src/conversion/webhook-client.js';

test('a conversion review answer nested 100,000 levels is an error in Go\'s words', { timeout: 10_000 }, async () => {
  const hook = await startConversionWebhook();
  try {
    hook.mode = 'deep';
    const target = { url: new URL(`https://${WEBHOOK_SERVICE_HOST}:${hook.port}/convert`), host: '127.0.0.1', port: hook.port, serverName: WEBHOOK_SERVICE_HOST, ca: hook.caPem };
    const review = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'u', desiredAPIVersion: 'example.com/v1', objects: [] } };
    await assert.rejects(postReview(target, review), { message: `couldn't get version/kind; json parse error: invalid character '[' exceeded max depth` });
  } finally {
    await hook.close();
  }
});
