import { RegistryError, RegistryErrorCode } from '../errors';

/** The most bytes a catalogue document may have, and the setting that says so (named in the error, so it can be raised). */
export interface DocumentSizeCap {
  readonly maxBytes: number;
  /** Where the limit is set, e.g. `mcp.catalogue.maxManifestBytes`. */
  readonly setting: string;
}

/**
 * `registry.document_too_large`: `where` is `bytes` long (`exact` when the service said so or the file's
 * size is known, else only "larger than" the cap: the download stopped there), over the cap.
 */
export function documentTooLarge(where: string, cap: DocumentSizeCap, bytes: number, exact: boolean): RegistryError {
  const size = exact ? `is ${bytes} bytes, over` : 'is larger than';
  return new RegistryError(
    RegistryErrorCode.DocumentTooLarge,
    `${where} ${size} the limit of ${cap.maxBytes} bytes (${cap.setting}); raise ${cap.setting} to read it`,
  );
}
