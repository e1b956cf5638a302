// The keep-alive pool a CLI run's requests go through. The run's Context owns it
// (src/cli/context-factory.ts): made on the first request, from the run's own environment
// (HTTP_PROXY, HTTPS_PROXY, NO_PROXY as the Context has them, never process.env), and closed
// with the run's other clean-up (idle keep-alive sockets would hold the process open).
import type { buildConnector, Dispatcher } from 'undici';
import { isLoopbackAddress } from './plain-http.js';
import { UsageError } from '../errors.js';
import type { Undici } from './undici.js';

/** The variables the pool reads (a run's environment, never process.env). */
type Env = Record<string, string | undefined>;

/** The run's dispatcher, made with the undici the transport loaded (undici loads on the first request only). */
export type DispatcherSource = (undici: Undici) => Dispatcher;

export interface KeepAlivePool {
  get: DispatcherSource;
  close(): Promise<void>;
}

export function keepAlivePool(env: Env): KeepAlivePool {
  let made: Dispatcher | undefined;
  return {
    get(undici) {
      if (!made) {
        const opts = { keepAliveTimeout: 10_000, connections: 64, connect: loopbackChecked(undici.buildConnector({})) };
        // The variables undici's EnvHttpProxyAgent reads, read the same way (lower case first),
        // but from `env`; '' where unset, so that undici does not read process.env itself.
        const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
        const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? '';
        // With no proxy, EnvHttpProxyAgent sends everything through a plain Agent, after parsing
        // each request's origin and reading NO_PROXY (~10 µs a request of a bulk run): the Agent itself then.
        made =
          httpProxy || httpsProxy
            ? // proxyTunnel: CONNECT for http:// targets too (undici 7's default, said here because
              // undici 8 would send those to the proxy as absolute-form requests)
              new undici.EnvHttpProxyAgent({
                ...opts,
                proxyTunnel: true,
                httpProxy,
                httpsProxy,
                noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
              })
            : new undici.Agent(opts);
      }
      return made;
    },
    async close() {
      const d = made;
      made = undefined;
      await d?.close();
    },
  };
}

/**
 * Plain HTTP to `localhost` is allowed without --insecure-http because it never leaves this
 * machine — which holds only if the name resolved to a loopback address (a hosts file or a
 * resolver may say otherwise). Checked on the connected socket, before anything is sent.
 */
export function loopbackChecked(connect: buildConnector.connector): buildConnector.connector {
  return (options, callback) =>
    connect(options, (...args) => {
      const [err, socket] = args;
      if (err || options.protocol !== 'http:' || options.hostname.toLowerCase() !== 'localhost')
        return callback(...args);
      const at = socket.remoteAddress ?? 'an unknown address';
      if (isLoopbackAddress(at)) return callback(...args);
      socket.destroy();
      callback(
        new UsageError(
          `http://localhost resolved to ${at}, which is not this ` +
            `machine: the API key would cross the network unencrypted`,
          'use http://127.0.0.1 (or https://), or correct what localhost resolves to (the hosts file)',
        ),
        null,
      );
    });
}
