// One Lambda execution environment for the deploy rehearsal: loads a bundle as the Node.js runtime
// does (require of index.js at init, `handler` export), then runs one invocation per IPC message,
// one at a time, with a Lambda-shaped context and a fresh X-Ray trace header per invocation.
// Plain JavaScript on purpose: it runs the bundle exactly as built, with nothing transpiled in front.
const { randomBytes, randomUUID } = require('node:crypto');

const bundle = process.argv[2];

// The rehearsal's network has no Internet: a connection to anything but the loopback stand-ins is
// refused at once (a webhook delivery to a customer's public address then fails as unreachable),
// so no test ever reaches a real host and none waits on one.
const net = require('node:net');
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const options = typeof args[0] === 'object' && args[0] !== null ? args[0] : { port: args[0], host: args[1] };
  const host = options.host ?? 'localhost';
  if (options.path === undefined && !['127.0.0.1', 'localhost', '::1'].includes(host)) {
    const error = Object.assign(new Error(`connect ECONNREFUSED ${host}:${options.port} (no Internet in the rehearsal)`), { code: 'ECONNREFUSED' });
    process.nextTick(() => this.destroy(error));
    return this;
  }
  return connect.apply(this, args);
};
const functionName = process.env.AWS_LAMBDA_FUNCTION_NAME;

let handler;
const initStarted = process.hrtime.bigint();
try {
  handler = require(bundle).handler;
  if (typeof handler !== 'function') throw new Error(`${bundle} exports no handler function`);
  process.send({ type: 'ready', initMs: Number(process.hrtime.bigint() - initStarted) / 1e6 });
} catch (err) {
  process.send({ type: 'init-error', error: String(err && err.stack ? err.stack : err) });
  process.exit(1);
}

// The rehearsal ended (or crashed): an environment never outlives its host.
process.on('disconnect', () => process.exit(0));

process.on('message', async (message) => {
  const requestId = randomUUID();
  process.env._X_AMZN_TRACE_ID = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')};Parent=${randomBytes(8).toString('hex')};Sampled=0`;
  const deadline = Date.now() + message.timeoutMs;
  const context = {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:111111111111:function:${functionName}`,
    memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE,
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'rehearsal',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
  try {
    const result = await handler(message.event, context);
    process.send({ type: 'result', id: message.id, result: result === undefined ? null : result });
  } catch (err) {
    process.send({ type: 'error', id: message.id, error: String(err && err.stack ? err.stack : err) });
  }
});
