import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, MoreThan, type Repository } from 'typeorm';
import { SigningKey } from './signing-key.entity.js';

/** Every statement on signing_keys. */
@Injectable()
export class SigningKeyStore {
  constructor(@InjectRepository(SigningKey) private readonly signingKeys: Repository<SigningKey>) {}

  findActive(): Promise<SigningKey | null> {
    return this.signingKeys.findOneBy({ retiredAt: IsNull() });
  }

  exists(kid: string): Promise<boolean> {
    return this.signingKeys.existsBy({ kid });
  }

  /** The signing key first, then retired keys still valid at `now`, the most recently retired first. */
  findVerifiable(now: Date): Promise<SigningKey[]> {
    return this.signingKeys.find({
      where: [{ retiredAt: IsNull() }, { verifyUntil: MoreThan(now) }],
      order: { verifyUntil: { direction: 'DESC', nulls: 'FIRST' } },
    });
  }

  /** Keys by kid, retired ones too: their public halves are kept for proofs that outlive them (docs/transparency.md). */
  findByKids(kids: string[]): Promise<SigningKey[]> {
    return this.signingKeys.find({ where: { kid: In(kids) }, select: { kid: true, publicJwk: true } });
  }

  /** Inserts the key unless another is active already (the unique index of the active key decides). */
  async insertUnlessActive(key: SigningKey): Promise<void> {
    await this.signingKeys.createQueryBuilder().insert().values(this.signingKeys.create(key)).orIgnore().execute();
  }

  /** Retires the active key (locked, so rotations queue) and makes `next` the signer, in one transaction. */
  replaceActive(next: SigningKey, retiredAt: Date, verifyUntil: Date): Promise<SigningKey | null> {
    return this.signingKeys.manager.transaction(async (manager) => {
      const current = await manager.findOne(SigningKey, { where: { retiredAt: IsNull() }, lock: { mode: 'pessimistic_write' } });
      if (current) await manager.update(SigningKey, { kid: current.kid }, { retiredAt, verifyUntil });
      await manager.insert(SigningKey, this.signingKeys.create(next));
      return current;
    });
  }

  async privateJwkEnc(kid: string): Promise<Buffer> {
    const { privateJwkEnc } = await this.signingKeys.findOneOrFail({ where: { kid }, select: { kid: true, privateJwkEnc: true } });
    return privateJwkEnc;
  }
}
