import fs from 'node:fs';
import type { ZkTlsOptions } from '../zookeeper/protocol/server-link.js';
import { UsageError } from './usage-error.js';

/** The PEM files of the `--tls-*` flags, as given on the command line. */
export interface TlsFileFlags {
  readonly 'tls-ca'?: string;
  readonly 'tls-cert'?: string;
  readonly 'tls-key'?: string;
}

/**
 * `node:tls` options from the `--tls-*` flags: undefined without any of them (plain TCP). Reads
 * each file now, so that a path that cannot be read fails as bad usage naming its flag before
 * any connection is tried. A certificate goes with its key: one without the other is refused
 * here, where Node would only fail later with a less telling error.
 */
export function tlsFromFlags(flags: TlsFileFlags): ZkTlsOptions | undefined {
  const { 'tls-ca': ca, 'tls-cert': cert, 'tls-key': key } = flags;
  if (ca === undefined && cert === undefined && key === undefined) return undefined;
  if (cert !== undefined && key === undefined) throw new UsageError('--tls-cert needs --tls-key (the private key of that certificate)');
  if (key !== undefined && cert === undefined) throw new UsageError('--tls-key needs --tls-cert (the certificate of that key)');
  return {
    ...(ca !== undefined && { ca: readPem('--tls-ca', ca) }),
    ...(cert !== undefined && { cert: readPem('--tls-cert', cert) }),
    ...(key !== undefined && { key: readPem('--tls-key', key) }),
  };
}

function readPem(flag: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`${flag}: cannot read ${file}: ${code ?? (error as Error).message}`);
  }
}
