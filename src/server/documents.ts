import type * as Crypto from 'node:crypto';
import { createRequire } from 'node:module';

/**
 * `node:crypto`, loaded on the first document kept: loading it costs ~6 ms, which a server would otherwise
 * spend before answering `initialize`, while most sessions never keep a document.
 */
const sha256Hex = (text: string): string =>
  (createRequire(import.meta.url)('node:crypto') as typeof Crypto)
    .createHash('sha256')
    .update(text)
    .digest('hex');

/** A document a tool produced that is too large for a tool answer, kept to be read as a resource. */
export interface StoredDocument {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly text: string;
}

/** Documents kept at once; the oldest is dropped first (a client reads its link right away). */
const KEEP = 8;

/**
 * Large tool documents (the HTML topology is ~450 KB) are not sent as tool text, which clients cap: the
 * server keeps them here and answers with a `resource_link`. The URI is the content's hash, so the same
 * page asked twice is one resource.
 */
export class DocumentStore {
  private readonly documents = new Map<string, StoredDocument>();
  private readonly listeners: (() => void)[] = [];

  publish(name: string, mimeType: string, text: string): StoredDocument {
    const hash = sha256Hex(text).slice(0, 16);
    const extension = EXTENSIONS[mimeType] ?? 'txt';
    const uri = `meshlens://documents/${name}-${hash}.${extension}`;
    const document = { uri, name: `${name}.${extension}`, mimeType, text };
    const added = !this.documents.delete(uri);
    this.documents.set(uri, document);
    for (const key of this.documents.keys()) {
      if (this.documents.size <= KEEP) break;
      this.documents.delete(key);
    }
    // The same page published again is the same resource: the list is as it was.
    if (added) for (const listener of this.listeners) listener();
    return document;
  }

  /** Called when a publication adds a document to the list (and may have dropped the oldest). */
  onPublish(listener: () => void): void {
    this.listeners.push(listener);
  }

  get(uri: string): StoredDocument | undefined {
    return this.documents.get(uri);
  }

  list(): readonly StoredDocument[] {
    return [...this.documents.values()];
  }
}

const EXTENSIONS: Record<string, string> = {
  'text/html': 'html',
  'application/json': 'json',
  'text/markdown': 'md',
};
