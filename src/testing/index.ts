// crd-apiserver/testing: the test kit (startTestEnv), envtest's counterpart for Node tests.
export { startTestEnv, type TestEnv, type TestEnvOptions, type WebhookOptions, type WebhookServing } from './test-env.js';
