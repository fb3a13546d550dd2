/** Retrieval group: add documents and search them. */
import { UsageError } from '../../shared/errors.js';
import type { Router } from '../router.js';
import { asObject, optionalInt, optionalObject, optionalString, requiredString, type Awaitable } from './input.js';

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

function parseDocument(value: unknown, where: string): DocumentInput {
  const body = asObject(value, where);
  const doc: DocumentInput = { text: requiredString(body, 'text', where) };
  const id = optionalString(body, 'id', where);
  const metadata = optionalObject(body, 'metadata', where);
  if (id !== undefined) doc.id = id;
  if (metadata !== undefined) doc.metadata = metadata;
  return doc;
}

export function registerRetrievalRoutes(router: Router, service: RetrievalService): void {
  const base = '/api/v1/retrieval';
  router.post(`${base}/documents`, async (ctx) => {
    const body = asObject(await ctx.json());
    let docs: DocumentInput[];
    if (body.documents !== undefined) {
      if (!Array.isArray(body.documents) || body.documents.length === 0) {
        throw new UsageError('body.documents must be a non-empty array of {text, id?, metadata?}', 'invalid_input');
      }
      docs = body.documents.map((d, i) => parseDocument(d, `body.documents[${i}]`));
    } else docs = [parseDocument(body, 'body')];
    ctx.send(201, { documents: await service.add(docs) });
  });
  router.get(`${base}/documents`, async () => ({ documents: await service.list() }));
  router.get(`${base}/documents/{id}`, async (ctx) => ({ document: await service.get(ctx.params.id!) }));
  router.delete(`${base}/documents/{id}`, async (ctx) => {
    await service.remove(ctx.params.id!);
    return { deleted: ctx.params.id };
  });
  router.post(`${base}/search`, async (ctx) => {
    const body = asObject(await ctx.json());
    const query = requiredString(body, 'query');
    const topK = optionalInt(body, 'top_k', 'body', 1, 1000);
    return { query, results: await service.search(query, topK) };
  });
}
