/**
 * Document retrieval with BM25 ranking (k1 = 1.2, b = 0.75) over an inverted
 * index kept up to date on add and remove.
 */
import { NotFoundError, UsageError } from '../../shared/errors.js';
import { systemClock, type Clock } from '../../shared/clock.js';

export interface RetrievalDocument {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  added_at: string;
}

export interface RetrievalHit {
  id: string;
  score: number;
  text: string;
  metadata: Record<string, unknown>;
}

export interface RetrievalIndex {
  add(documents: Array<{ id?: string; text: string; metadata?: Record<string, unknown> }>): RetrievalDocument[];
  list(): RetrievalDocument[];
  get(id: string): RetrievalDocument;
  remove(id: string): void;
  /** best first; documents sharing no term with the query are left out */
  search(query: string, topK?: number): RetrievalHit[];
  readonly size: number;
}

const K1 = 1.2;
const B = 0.75;
const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'by',
  'for',
  'from',
  'in',
  'is',
  'it',
  'of',
  'on',
  'or',
  'that',
  'the',
  'this',
  'to',
  'was',
  'with',
]);

export function tokenize(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((t) => !STOP_WORDS.has(t));
}

interface Indexed {
  doc: RetrievalDocument;
  length: number;
  terms: Map<string, number>;
}

export function createRetrievalIndex(options: { clock?: Clock; maxDocuments?: number } = {}): RetrievalIndex {
  const clock = options.clock ?? systemClock;
  const maxDocuments = options.maxDocuments ?? 100_000;
  const docs = new Map<string, Indexed>();
  /** term → ids of documents containing it */
  const postings = new Map<string, Set<string>>();
  let totalLength = 0;
  let next = 1;

  const unindex = (entry: Indexed) => {
    totalLength -= entry.length;
    for (const term of entry.terms.keys()) {
      const set = postings.get(term)!;
      set.delete(entry.doc.id);
      if (set.size === 0) postings.delete(term);
    }
    docs.delete(entry.doc.id);
  };
  const copy = (d: RetrievalDocument): RetrievalDocument => ({ ...d, metadata: { ...d.metadata } });

  return {
    add(input) {
      if (docs.size + input.length > maxDocuments)
        throw new UsageError(`document limit reached (${maxDocuments})`, { code: 'document_limit' });
      return input.map((d, i) => {
        if (typeof d.text !== 'string' || d.text.trim() === '')
          throw new UsageError(`documents[${i}].text must be a non-empty string`, { code: 'invalid_input' });
        let id = d.id;
        while (id === undefined || (d.id === undefined && docs.has(id))) id = `doc-${next++}`;
        const existing = docs.get(id);
        if (existing) unindex(existing); // re-adding an id replaces the document
        const tokens = tokenize(d.text);
        const terms = new Map<string, number>();
        for (const t of tokens) terms.set(t, (terms.get(t) ?? 0) + 1);
        const doc: RetrievalDocument = {
          id,
          text: d.text,
          metadata: { ...d.metadata },
          added_at: clock.wallNow().toISOString(),
        };
        docs.set(id, { doc, length: tokens.length, terms });
        totalLength += tokens.length;
        for (const term of terms.keys()) {
          let set = postings.get(term);
          if (!set) postings.set(term, (set = new Set()));
          set.add(id);
        }
        return copy(doc);
      });
    },
    list: () => [...docs.values()].map((e) => copy(e.doc)),
    get(id) {
      const entry = docs.get(id);
      if (!entry) throw new NotFoundError(`document "${id}" not found`, { code: 'document_not_found' });
      return copy(entry.doc);
    },
    remove(id) {
      const entry = docs.get(id);
      if (!entry) throw new NotFoundError(`document "${id}" not found`, { code: 'document_not_found' });
      unindex(entry);
    },
    search(query, topK = 10) {
      const terms = [...new Set(tokenize(query))];
      const n = docs.size;
      if (n === 0 || terms.length === 0) return [];
      const avgLength = totalLength / n || 1;
      const scores = new Map<string, number>();
      for (const term of terms) {
        const ids = postings.get(term);
        if (!ids) continue;
        const idf = Math.log(1 + (n - ids.size + 0.5) / (ids.size + 0.5));
        for (const id of ids) {
          const entry = docs.get(id)!;
          const tf = entry.terms.get(term)!;
          const score = idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * entry.length) / avgLength)));
          scores.set(id, (scores.get(id) ?? 0) + score);
        }
      }
      return [...scores.entries()]
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, topK)
        .map(([id, score]) => {
          const doc = docs.get(id)!.doc;
          return { id, score: Math.round(score * 10_000) / 10_000, text: doc.text, metadata: { ...doc.metadata } };
        });
    },
    get size() {
      return docs.size;
    },
  };
}
