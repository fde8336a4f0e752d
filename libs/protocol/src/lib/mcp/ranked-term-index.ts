import SearchableMap from 'minisearch/SearchableMap';

/** BM25+ as minisearch scores it (its defaults: saturation k, length normalisation b, floor d). */
const K = 1.2;
const B = 0.7;
const D = 0.5;
/** A query word of this many characters or more also matches the longer words it starts. */
const MIN_PREFIX_LENGTH = 4;
/** minisearch's weight of a prefix match, before its discount by the characters added. */
const PREFIX_WEIGHT = 0.375;

/** The documents one term occurs in, within one field, with how often; a removed document stays until compaction. */
interface Postings {
  readonly slots: number[];
  readonly counts: number[];
  removed: number;
}

/**
 * A full-text index of documents (owners of type `O`), each given as its terms per field, ranked by BM25+
 * with a boost per field, and a query word of 4 characters or more also matching the terms it starts
 * (minisearch's scoring: docs/adr/0021-tool-search.md). Terms live in minisearch's radix tree
 * (`SearchableMap`), which finds a prefix's terms; each term's postings are plain arrays, and a search
 * adds scores into typed arrays and takes the best from a heap, so it costs a few array reads per posting
 * and allocates nothing per matching document. A removed document's postings are skipped until removed
 * documents outnumber live ones by a thousand, then every list is compacted at once.
 */
export class RankedTermIndex<O> {
  private readonly terms = new SearchableMap<Array<Postings | undefined>>();
  private owners: Array<O | undefined> = [];
  private readonly slotOf = new Map<O, number>();
  /** Per field, each slot's number of terms. */
  private lengths: number[][];
  private readonly totalLengths: number[];
  /** The postings each slot is in: what its removal marks. */
  private postingsOf: Postings[][] = [];
  /** Scratch of `add`: how often each term occurs in the field being added. */
  private readonly termCounts = new Map<string, number>();
  // Scratch of one search, indexed by slot; cleared for the slots it touched before it returns.
  private scores = new Float64Array(0);
  private lastQueryTerm = new Int32Array(0);
  private matchedQueryTerms = new Uint16Array(0);

  /** `boosts`: one per field, in the order `add` gives the fields' terms. */
  constructor(private readonly boosts: readonly number[]) {
    this.lengths = boosts.map(() => []);
    this.totalLengths = boosts.map(() => 0);
  }

  /** Indexes `owner` (not already in the index) with its terms, one array per field. */
  add(owner: O, fields: ReadonlyArray<readonly string[]>): void {
    const slot = this.owners.length;
    this.owners.push(owner);
    this.slotOf.set(owner, slot);
    const postingsOf: Postings[] = [];
    fields.forEach((terms, field) => {
      this.lengths[field][slot] = terms.length;
      this.totalLengths[field] += terms.length;
      const counts = this.termCounts;
      counts.clear();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      for (const [term, count] of counts) {
        const byField = this.terms.fetch(term, () => []);
        const postings = (byField[field] ??= { slots: [], counts: [], removed: 0 });
        postings.slots.push(slot);
        postings.counts.push(count);
        postingsOf.push(postings);
      }
    });
    this.postingsOf[slot] = postingsOf;
    this.growScratch();
  }

  /** Takes `owner` out of the results at once; its postings go at the next compaction. */
  remove(owner: O): void {
    const slot = this.slotOf.get(owner);
    if (slot === undefined) return;
    this.slotOf.delete(owner);
    this.owners[slot] = undefined;
    for (const postings of this.postingsOf[slot]) postings.removed += 1;
    this.postingsOf[slot] = [];
    this.lengths.forEach((lengths, field) => {
      this.totalLengths[field] -= lengths[slot];
    });
    if (this.owners.length > 2 * this.slotOf.size + 1_024) this.compact();
  }

  /**
   * The owners matching any of `queryTerms`, best first, at most `limit` of them; `accept` leaves owners
   * out before the limit counts. A document's score is the sum over the query terms of its BM25+ in each
   * field times the field's boost, times the number of query terms it matches.
   */
  search(queryTerms: readonly string[], limit: number, accept: (owner: O) => boolean): O[] {
    const touched: number[] = [];
    [...new Set(queryTerms)].forEach((term, queryTerm) => {
      this.score(this.terms.get(term), 1, queryTerm, touched);
      if (term.length < MIN_PREFIX_LENGTH) return;
      for (const [longer, byField] of this.terms.atPrefix(term)) {
        if (longer.length === term.length) continue;
        const weight = (PREFIX_WEIGHT * longer.length) / (longer.length + 0.3 * (longer.length - term.length));
        this.score(byField, weight, queryTerm, touched);
      }
    });
    const ranking = new Ranking(touched.length);
    for (const slot of touched) {
      ranking.push(slot, this.scores[slot] * this.matchedQueryTerms[slot]);
      this.scores[slot] = 0;
      this.lastQueryTerm[slot] = -1;
      this.matchedQueryTerms[slot] = 0;
    }
    const found: O[] = [];
    while (found.length < limit && ranking.size > 0) {
      const owner = this.owners[ranking.pop()] as O;
      if (accept(owner)) found.push(owner);
    }
    return found;
  }

  /** Adds one term's BM25+ in each field, times `weight`, to the score of every live document it occurs in. */
  private score(byField: ReadonlyArray<Postings | undefined> | undefined, weight: number, queryTerm: number, touched: number[]): void {
    if (byField === undefined) return;
    const documents = this.slotOf.size;
    byField.forEach((postings, field) => {
      if (postings === undefined) return;
      const matching = postings.slots.length - postings.removed;
      if (matching === 0) return;
      const idf = Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
      const factor = weight * this.boosts[field] * idf;
      const lengthFactor = (K * B * documents) / this.totalLengths[field];
      const lengths = this.lengths[field];
      const { slots, counts } = postings;
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        if (this.owners[slot] === undefined) continue;
        const count = counts[i];
        if (this.scores[slot] === 0) touched.push(slot);
        this.scores[slot] += factor * (D + (count * (K + 1)) / (count + K * (1 - B) + lengthFactor * lengths[slot]));
        if (this.lastQueryTerm[slot] !== queryTerm) {
          this.lastQueryTerm[slot] = queryTerm;
          this.matchedQueryTerms[slot] += 1;
        }
      }
    });
  }

  private growScratch(): void {
    if (this.scores.length >= this.owners.length) return;
    const length = Math.max(64, this.owners.length * 2);
    const scores = new Float64Array(length);
    scores.set(this.scores);
    this.scores = scores;
    const last = new Int32Array(length).fill(-1);
    last.set(this.lastQueryTerm);
    this.lastQueryTerm = last;
    const matched = new Uint16Array(length);
    matched.set(this.matchedQueryTerms);
    this.matchedQueryTerms = matched;
  }

  /** Renumbers the live documents from 0 and drops the removed ones' postings, and terms left with none. */
  private compact(): void {
    const renumbered = new Int32Array(this.owners.length).fill(-1);
    const owners: O[] = [];
    const postingsOf: Postings[][] = [];
    const lengths: number[][] = this.lengths.map(() => []);
    this.owners.forEach((owner, slot) => {
      if (owner === undefined) return;
      const next = owners.length;
      renumbered[slot] = next;
      owners.push(owner);
      this.slotOf.set(owner, next);
      postingsOf.push(this.postingsOf[slot]);
      this.lengths.forEach((fieldLengths, field) => {
        lengths[field][next] = fieldLengths[slot];
      });
    });
    const emptied: string[] = [];
    for (const [term, byField] of this.terms) {
      byField.forEach((postings, field) => {
        if (postings === undefined) return;
        let kept = 0;
        for (let i = 0; i < postings.slots.length; i++) {
          const slot = renumbered[postings.slots[i]];
          if (slot < 0) continue;
          postings.slots[kept] = slot;
          postings.counts[kept] = postings.counts[i];
          kept += 1;
        }
        postings.slots.length = kept;
        postings.counts.length = kept;
        postings.removed = 0;
        if (kept === 0) byField[field] = undefined;
      });
      if (byField.every((postings) => postings === undefined)) emptied.push(term);
    }
    for (const term of emptied) this.terms.delete(term);
    this.owners = owners;
    this.postingsOf = postingsOf;
    this.lengths = lengths;
  }
}

/** A max-heap of slots by score (the earlier slot first on a tie), popped only as far as a search needs. */
class Ranking {
  private readonly slots: Int32Array;
  private readonly scores: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.slots = new Int32Array(capacity);
    this.scores = new Float64Array(capacity);
  }

  push(slot: number, score: number): void {
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!ranksBefore(slot, score, this.slots[parent], this.scores[parent])) break;
      this.slots[i] = this.slots[parent];
      this.scores[i] = this.scores[parent];
      i = parent;
    }
    this.slots[i] = slot;
    this.scores[i] = score;
  }

  pop(): number {
    const top = this.slots[0];
    const size = --this.size;
    const slot = this.slots[size];
    const score = this.scores[size];
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && ranksBefore(this.slots[child + 1], this.scores[child + 1], this.slots[child], this.scores[child])) child += 1;
      if (!ranksBefore(this.slots[child], this.scores[child], slot, score)) break;
      this.slots[i] = this.slots[child];
      this.scores[i] = this.scores[child];
      i = child;
    }
    this.slots[i] = slot;
    this.scores[i] = score;
    return top;
  }
}

/** The higher score first; on a tie, the document indexed first. */
function ranksBefore(slot: number, score: number, otherSlot: number, otherScore: number): boolean {
  return score > otherScore || (score === otherScore && slot < otherSlot);
}
