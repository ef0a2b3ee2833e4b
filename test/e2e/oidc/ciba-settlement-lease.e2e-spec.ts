import { randomUUID } from 'node:crypto';
import { OidcModelStore } from '../../../src/oidc/library/oidc-model.store.js';
import { CibaRecords } from '../../../src/oidc/ciba/ciba-records.js';
import { useE2eApp } from '../../support/e2e.js';

// A backchannel request is settled by one replica at a time (docs/oidc.md, "CIBA"): the lease is a row
// of oidc_models taken with one statement, so replicas racing on one database agree without a lock held.
describe('CIBA settlement lease (real database)', () => {
  const e2e = useE2eApp();

  it('should give a lease to exactly one of many concurrent takers', async () => {
    const store = e2e.app.get(OidcModelStore);
    const id = randomUUID();
    const now = new Date();
    const until = new Date(now.getTime() + 30_000);
    const taken = await Promise.all(Array.from({ length: 12 }, () => store.takeLease('EidgwCibaSettling', id, until, now)));
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('should refuse the lease while it runs and give it again once it has run out (a replica that died mid-way)', async () => {
    const store = e2e.app.get(OidcModelStore);
    const id = randomUUID();
    const now = new Date();
    const until = new Date(now.getTime() + 30_000);
    await expect(store.takeLease('EidgwCibaSettling', id, until, now)).resolves.toBe(true);
    await expect(store.takeLease('EidgwCibaSettling', id, until, new Date(now.getTime() + 29_000))).resolves.toBe(false);
    const later = new Date(until.getTime() + 1);
    await expect(store.takeLease('EidgwCibaSettling', id, new Date(later.getTime() + 30_000), later)).resolves.toBe(true);
  });

  it('should let the request settle once through CibaRecords', async () => {
    const records = e2e.app.get(CibaRecords);
    const authReqId = randomUUID();
    const claims = await Promise.all([records.claimSettlement(authReqId), records.claimSettlement(authReqId)]);
    expect(claims.sort()).toEqual([false, true]);
  });
});
