/**
 * The createFetchHandler options every runtime's server uses in the tests: a small body cap the
 * checks can exceed, quick retry advice, no keep-alive pings (short tests).
 */
module.exports = { maxBodyBytes: 64 * 1024, retryMs: 50, keepAliveMs: 0 };
