/** Retrieval group: add documents and search them. */
import type { Routes } from '../routes.js';
import { body, id, int, parseWith, record, text, z, noBody } from '../body.js';
import type { Awaitable } from './input.js';

export interface DocumentInput {
  id?: string;
  text: string;
  metadata?: Record<string, unknown>;
}

export interface DocumentView {
  id: string;
  text: string;
  metadata: Record<string, unknown>;
  added_at: string;
}

export interface SearchHit {
  id: string;
  score: number;
  text: string;
  metadata: Record<string, unknown>;
}

export interface RetrievalService {
  add(documents: DocumentInput[]): Awaitable<DocumentView[]>;
  list(): Awaitable<DocumentView[]>;
  get(id: string): Awaitable<DocumentView>;
  remove(id: string): Awaitable<void>;
  search(query: string, topK?: number): Awaitable<SearchHit[]>;
}

export const Document = z.strictObject({ text: text(200_000), id: id().optional(), metadata: record().optional() });
/** one document, or `{documents: [...]}` with up to 1000 */
export const Documents = z.strictObject({
  documents: z.array(Document).min(1, 'must hold at least one document').max(1000),
});
export const Search = z.strictObject({ query: text(10_000), top_k: int(1, 1000).optional() });

function toDocument(d: z.infer<typeof Document>): DocumentInput {
  const doc: DocumentInput = { text: d.text };
  if (d.id !== undefined) doc.id = d.id;
  if (d.metadata !== undefined) doc.metadata = d.metadata;
  return doc;
}

export function registerRetrievalRoutes(router: Routes, service: RetrievalService): void {
  const base = '/api/v1/retrieval';
  router.post(`${base}/documents`, async (ctx) => {
    // the form is told by its keys, so the 400 names the field of the form that was meant
    const value = await ctx.json();
    const isBatch = typeof value === 'object' && value !== null && 'documents' in value;
    const docs = isBatch
      ? parseWith(Documents, value).documents.map(toDocument)
      : [toDocument(parseWith(Document, value))];
    ctx.send(201, { documents: await service.add(docs) });
  });
  router.get(`${base}/documents`, async () => ({ documents: await service.list() }));
  router.get(`${base}/documents/{id}`, async (ctx) => ({ document: await service.get(ctx.params.id!) }));
  router.delete(`${base}/documents/{id}`, async (ctx) => {
    await noBody(ctx, 'retrieval/documents/{id} DELETE');
    await service.remove(ctx.params.id!);
    return { deleted: ctx.params.id };
  });
  router.post(`${base}/search`, async (ctx) => {
    const { query, top_k: topK } = await body(ctx, Search);
    return { query, results: await service.search(query, topK) };
  });
}
