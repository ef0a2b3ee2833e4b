import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { consistencyRanges, foldSubtrees, inclusionRanges, nodeHash, subtreesOf, type LeafRange, type Subtree } from './merkle.js';
import { resultTokenLeaf } from './result-token-leaf.js';
import { subtreeKey, TransparencyLogStore, type StoredTreeHead } from './transparency-log.store.js';
import { TreeHeadSigner } from './tree-head-signer.js';

/** Pending leaves appended per statement round; a backlog takes several rounds in the one transaction. */
const APPEND_BATCH = 5_000;

/** A signed tree head as the API shows it (docs/transparency.md). */
export interface TreeHeadView {
  treeSize: number;
  rootHash: string;
  timestamp: string;
  /** The ES256 JWS whose payload states treeSize, rootHash and timestamp. */
  jws: string;
}

export interface InclusionProofView {
  leafHash: string;
  leafIndex: number;
  treeSize: number;
  inclusionProof: string[];
  /** The signed head of exactly `treeSize`, when one was published at that size. */
  treeHead: TreeHeadView | null;
}

export interface ConsistencyProofView {
  from: number;
  to: number;
  consistencyProof: string[];
}

export const treeHeadView = (head: StoredTreeHead): TreeHeadView => ({
  treeSize: head.treeSize,
  rootHash: head.rootHash.toString('hex'),
  timestamp: head.signedAt.toISOString(),
  jws: head.jws,
});

/**
 * The append-only Merkle log of final result tokens (docs/transparency.md). The transaction that
 * ends a session queues its token's leaf; `publish` appends the queue under a lock shared by every
 * replica, stores the new complete subtrees and signs a tree head, all in one transaction.
 */
@Injectable()
export class TransparencyLog {
  constructor(
    private readonly store: TransparencyLogStore,
    private readonly signer: TreeHeadSigner,
    private readonly clock: Clock,
  ) {}

  /** Inside the transaction that ends the sessions: a crash after it loses no leaf, a rollback adds none. */
  enqueue(manager: EntityManager, resultTokens: string[], now: Date): Promise<void> {
    return this.store.enqueue(manager, resultTokens.map(resultTokenLeaf), now);
  }

  /** Whether a publish could append anything: one cheap read, so that idle replicas stay idle. */
  hasPending(): Promise<boolean> {
    return this.store.hasPending();
  }

  /**
   * Appends every queued leaf and signs the new tree head (the first call also signs the empty
   * log's). The new head, or null when nothing changed; with `wait: false`, also null when another
   * replica is appending (it drains the same queue).
   */
  async publish(wait: boolean): Promise<StoredTreeHead | null> {
    const sign = await this.signer.prepare();
    return this.store.whileAppending(wait, async (manager) => {
      let size = await this.store.treeSize(manager);
      // The complete subtrees of the current tree, left to right: all a new leaf can combine with.
      const frontier = await this.subtreesWithHashes(subtreesOf({ start: 0, size }), manager);
      const appended = await this.appendQueued(manager, frontier, size);
      size += appended;
      if (appended === 0 && (await this.store.latestTreeHead(manager))) return null;
      const timestamp = this.clock.nowMs();
      const rootHash = foldSubtrees(frontier.map((subtree) => subtree.hash));
      const jws = await sign({ treeSize: size, rootHash: rootHash.toString('hex'), timestamp });
      const head = { treeSize: size, rootHash, signedAt: new Date(timestamp), jws };
      await this.store.insertTreeHead(manager, head);
      return head;
    });
  }

  async latestTreeHead(): Promise<StoredTreeHead | null> {
    return this.store.latestTreeHead();
  }

  /** The index of a result token's leaf, null while it is still queued. */
  async leafIndexOf(resultToken: string): Promise<number | null> {
    const leaf = resultTokenLeaf(resultToken);
    return (await this.store.leafIndexes([leaf])).get(leaf.toString('hex')) ?? null;
  }

  /** RFC 9162 2.1.3: the proof that a leaf is in the tree of `treeSize` leaves (default: the latest signed head's). */
  async inclusionProof(leaf: Buffer, treeSize?: number): Promise<InclusionProofView> {
    const size = await this.signedSize(treeSize);
    const index = (await this.store.leafIndexes([leaf])).get(leaf.toString('hex'));
    if (index === undefined || index >= size) throw new DomainException('leaf_not_found', `No such leaf in the tree of ${size} leaves.`);
    const [proof, head] = await Promise.all([this.rangeHashes(inclusionRanges(index, size)), this.store.treeHead(size)]);
    return {
      leafHash: leaf.toString('hex'),
      leafIndex: index,
      treeSize: size,
      inclusionProof: proof.map((hash) => hash.toString('hex')),
      treeHead: head ? treeHeadView(head) : null,
    };
  }

  /** RFC 9162 2.1.4: the proof that the tree of `from` leaves is a prefix of the tree of `to` leaves. */
  async consistencyProof(from: number, to: number): Promise<ConsistencyProofView> {
    await this.signedSize(to);
    if (from > to) throw new DomainException('tree_size_unavailable', 'from must not be larger than to.');
    const proof = await this.rangeHashes(consistencyRanges(from, to));
    return { from, to, consistencyProof: proof.map((hash) => hash.toString('hex')) };
  }

  /** Proofs are only given for trees a signed head covers: a client could not check them against anything else. */
  private async signedSize(treeSize: number | undefined): Promise<number> {
    const latest = await this.store.latestTreeHead();
    const size = treeSize ?? latest?.treeSize ?? 0;
    if (!latest || size === 0 || size > latest.treeSize) {
      throw new DomainException(
        'tree_size_unavailable',
        `No signed tree head covers that size; the latest has ${latest?.treeSize ?? 0} leaves.`,
      );
    }
    return size;
  }

  /** Appends the queue, batch by batch, extending `frontier` in place; how many leaves it appended. */
  private async appendQueued(manager: EntityManager, frontier: (Subtree & { hash: Buffer })[], start: number): Promise<number> {
    let size = start;
    for (;;) {
      const batch = await this.store.pending(manager, APPEND_BATCH);
      if (batch.length === 0) break;
      // A leaf is in the log once: a repeat (only a bug could queue one) is dropped, not appended again.
      const seen = new Set(
        (
          await this.store.leafIndexes(
            batch.map((item) => item.leafHash),
            manager,
          )
        ).keys(),
      );
      const nodes: (Subtree & { hash: Buffer })[] = [];
      for (const { leafHash: hash } of batch) {
        const hex = hash.toString('hex');
        if (seen.has(hex)) continue;
        seen.add(hex);
        let node = { level: 0, index: size++, hash };
        nodes.push(node);
        // Two complete subtrees of one size side by side make the next size's: store it too.
        while (frontier.length > 0 && frontier[frontier.length - 1].level === node.level) {
          const left = frontier.pop()!;
          node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
          nodes.push(node);
        }
        frontier.push(node);
      }
      await this.store.insertSubtrees(manager, nodes);
      await this.store.deletePending(
        manager,
        batch.map((item) => item.id),
      );
      if (batch.length < APPEND_BATCH) break;
    }
    return size - start;
  }

  private async subtreesWithHashes(subtrees: Subtree[], db?: EntityManager): Promise<(Subtree & { hash: Buffer })[]> {
    const hashes = await this.store.subtrees(subtrees, db);
    return subtrees.map((subtree) => ({ ...subtree, hash: this.found(hashes, subtree) }));
  }

  /** The hashes of ranges of the tree, read as their complete subtrees in one query (docs/transparency.md, "Storage"). */
  private async rangeHashes(ranges: LeafRange[]): Promise<Buffer[]> {
    const hashes = await this.store.subtrees(ranges.flatMap(subtreesOf));
    return ranges.map((range) => foldSubtrees(subtreesOf(range).map((subtree) => this.found(hashes, subtree))));
  }

  private found(hashes: Map<string, Buffer>, subtree: Subtree): Buffer {
    const hash = hashes.get(subtreeKey(subtree));
    if (!hash) throw new Error(`The transparency log lacks its subtree ${subtreeKey(subtree)}`);
    return hash;
  }
}
