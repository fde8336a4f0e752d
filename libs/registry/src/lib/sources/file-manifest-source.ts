import { readFile } from 'node:fs/promises';
import { RegistryError, RegistryErrorCode } from '../errors';
import type { ManifestSource } from './manifest-source';

/** A manifest kept in a file: the local profile's fallback sample, and tests. */
export class FileManifestSource implements ManifestSource {
  constructor(readonly location: string) {}

  async fetch(): Promise<unknown> {
    let text: string;
    try {
      text = await readFile(this.location, 'utf8');
    } catch (error) {
      throw new RegistryError(RegistryErrorCode.ManifestUnreachable, `manifest file ${this.location} cannot be read`, { cause: error });
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new RegistryError(RegistryErrorCode.ManifestInvalid, `manifest file ${this.location} is not JSON`, { cause: error });
    }
  }
}
