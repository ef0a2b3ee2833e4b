import { Inject, Injectable } from '@nestjs/common';
import { SignJWT } from 'jose';
import { tokensConfig, type TokensConfig } from '../config/tokens.config.js';
import { SigningKeysService } from '../tokens/signing-keys.service.js';
import { TREE_HEAD_ALGORITHM, TREE_HEAD_TYPE, type TreeHeadClaims } from './tree-head.js';

/** Signs tree heads as JWSs with the service's signing key, the one in /.well-known/jwks.json. */
@Injectable()
export class TreeHeadSigner {
  constructor(
    private readonly signingKeys: SigningKeysService,
    @Inject(tokensConfig.KEY) private readonly config: TokensConfig,
  ) {}

  /**
   * A signing function bound to the active key, read now: the caller signs inside its transaction
   * without needing a second database connection (the embedded database has only one).
   */
  async prepare(): Promise<(head: TreeHeadClaims) => Promise<string>> {
    const key = await this.signingKeys.activeKey();
    if (key.alg !== TREE_HEAD_ALGORITHM)
      throw new Error(`Tree heads need an ${TREE_HEAD_ALGORITHM} signing key, the active one is ${key.alg}`);
    return (head) =>
      new SignJWT({ treeSize: head.treeSize, rootHash: head.rootHash, timestamp: head.timestamp })
        .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: TREE_HEAD_TYPE })
        .setIssuer(this.config.issuer)
        .setIssuedAt(Math.floor(head.timestamp / 1000))
        .sign(key.privateKey);
  }
}
