// A front for an e2e file (docs/architecture.md, "Tests"): the production app listening on a loopback port
// of its own, which is its PUBLIC_BASE_URL (the OpenID issuer, the SAML entityID and every link must name
// the address the service answers on), with a pro team and a member of it who registers clients through
// the management API. The clock is the real one unless `freezeClock`: the collector moves the sessions as
// it would in production. `beforeBoot` runs once the origin is known and before the app starts, for what
// the app reads at boot that names that origin (an upstream's redirect URI); a beforeAll declared before
// useFront runs before it, one declared after runs once the app is up.
import { type E2eApp, type E2eAppOptions, type TestEnv, useE2eApp } from './e2e.js';
import { freePort } from './oidc-rp.js';
import { memberOf, type TeamMember } from './team-member.js';

export interface FrontOptions {
  /** Extra environment; a function is called in beforeAll, after `beforeBoot`. */
  env?: TestEnv | (() => TestEnv);
  beforeBoot?: (origin: string) => Promise<void>;
  freezeClock?: E2eAppOptions['freezeClock'];
}

export interface Front {
  readonly e2e: E2eApp;
  /** A member of the e2e team, the same one for the whole file. */
  member: () => Promise<TeamMember>;
}

export function useFront(options: FrontOptions = {}): Front {
  let port = 0;
  beforeAll(async () => {
    port = await freePort();
    await options.beforeBoot?.(`http://127.0.0.1:${port}`);
  });
  const e2e = useE2eApp({
    listen: true,
    listenPort: () => port,
    env: () => ({ PUBLIC_BASE_URL: `http://127.0.0.1:${port}`, ...(typeof options.env === 'function' ? options.env() : options.env) }),
    withKey: { plan: 'pro' },
    freezeClock: options.freezeClock,
  });
  let member: Promise<TeamMember> | undefined;
  return { e2e, member: () => (member ??= memberOf(e2e.app, e2e.team)) };
}
