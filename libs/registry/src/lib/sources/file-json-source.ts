import { readFile, stat } from 'node:fs/promises';

import { RegistryError } from '../errors';
import { type DocumentKind, type JsonSource, MANIFEST_DOCUMENT } from '../model/json-source';
import { type DocumentSizeCap, documentTooLarge } from './document-size-cap';
import { parseDocument } from './parse-document';
import type { YamlLimits } from './yaml-limits';

/** A document kept in a file: the local profile's portal registry and fallback manifest, and tests. */
export class FileJsonSource implements JsonSource {
  constructor(
    readonly location: string,
    private readonly kind: DocumentKind = MANIFEST_DOCUMENT,
    private readonly yamlLimits?: YamlLimits,
    /** Unset, any size (our own files); an OpenAPI document's file is held to the cap its download would be. */
    private readonly sizeCap?: DocumentSizeCap,
  ) {}

  async fetch(): Promise<unknown> {
    let text: string;
    try {
      const { size } = await stat(this.location);
      if (this.sizeCap !== undefined && size > this.sizeCap.maxBytes)
        throw documentTooLarge(`${this.kind.label} file ${this.location}`, this.sizeCap, size, true);
      text = await readFile(this.location, 'utf8');
    } catch (error) {
      if (error instanceof RegistryError) throw error;
      throw new RegistryError(this.kind.unreachable, `${this.kind.label} file ${this.location} cannot be read`, { cause: error });
    }
    return parseDocument(text, this.kind, `${this.kind.label} file ${this.location}`, this.yamlLimits);
  }
}
