import fs from 'node:fs';
import { UsageError } from './usage-error.js';
/**
 * `node:tls` options from the `--tls-*` flags: undefined without any of them (plain TCP). Reads
 * each file now, so that a path that cannot be read fails as bad usage naming its flag before
 * any connection is tried. A certificate goes with its key: one without the other is refused
 * here, where Node would only fail later with a less telling error.
 */
export function tlsFromFlags(flags) {
    const { 'tls-ca': ca, 'tls-cert': cert, 'tls-key': key } = flags;
    if (ca === undefined && cert === undefined && key === undefined)
        return undefined;
    if (cert !== undefined && key === undefined)
        throw new UsageError('--tls-cert needs --tls-key (the private key of that certificate)');
    if (key !== undefined && cert === undefined)
        throw new UsageError('--tls-key needs --tls-cert (the certificate of that key)');
    return {
        ...(ca !== undefined && { ca: readPem('--tls-ca', ca) }),
        ...(cert !== undefined && { cert: readPem('--tls-cert', cert) }),
        ...(key !== undefined && { key: readPem('--tls-key', key) }),
    };
}
function readPem(flag, file) {
    try {
        return fs.readFileSync(file, 'utf8');
    }
    catch (error) {
        const code = error.code;
        throw new UsageError(`${flag}: cannot read ${file}: ${code ?? error.message}`);
    }
}
//# sourceMappingURL=tls-files.js.map