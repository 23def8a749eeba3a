/**
 * Certificates for TLS tests, made at test time with the `openssl` CLI (no fixtures to expire):
 *
 *   - a CA, and signed by it a server certificate for 127.0.0.1 and localhost (subjectAltName IP
 *     and DNS) and two client certificates, CN=alice and CN=bob (for x509 ACLs);
 *   - a second, unrelated CA and a client certificate it signed, CN=mallory (the "wrong CA" case).
 *
 * Keys are EC prime256v1 in PKCS#8 PEM ("BEGIN PRIVATE KEY"): ~10 ms each where RSA 2048 takes
 * 130–230 ms, and ZooKeeper's PemReader only reads PKCS#8 (it tries RSA, then EC, then DSA; the
 * "BEGIN EC PRIVATE KEY" form of `openssl ecparam -genkey` does not load).
 *
 * One set per test process (`testCerts()` caches it), in a temp dir removed on exit like the
 * servers' (see `makeTempDir` in zk-server.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from './zk-server.js';
const run = promisify(execFile);
const OPENSSL = 'openssl';
const VALID_DAYS = '2';
let cached;
/** The certificates of this test process, made on first use. */
export function testCerts() {
    cached ??= makeCerts().catch((error) => {
        cached = undefined; // let a later call try again instead of replaying the failure
        throw error;
    });
    return cached;
}
async function makeCerts() {
    const dir = makeTempDir('tls-certs-');
    const file = (name) => path.join(dir, name);
    const [ca, wrongCa] = await Promise.all([makeCa(dir, 'ca', 'nestjs-zk-lock test CA'), makeCa(dir, 'wrong-ca', 'nestjs-zk-lock unrelated CA')]);
    const serverExt = ['subjectAltName=IP:127.0.0.1,DNS:localhost', 'extendedKeyUsage=serverAuth'];
    const clientExt = ['extendedKeyUsage=clientAuth'];
    const [server, alice, bob, mallory] = await Promise.all([
        makeLeaf(file('server'), 'localhost', ca, serverExt),
        makeLeaf(file('alice'), 'alice', ca, clientExt),
        makeLeaf(file('bob'), 'bob', ca, clientExt),
        makeLeaf(file('mallory'), 'mallory', wrongCa, clientExt),
    ]);
    const caOf = (signer) => ({ cert: fs.readFileSync(signer.certFile, 'utf8'), certFile: signer.certFile });
    return { dir, ca: caOf(ca), server, alice, bob, wrongCa: caOf(wrongCa), mallory };
}
async function makeCa(dir, name, commonName) {
    const certFile = path.join(dir, `${name}.pem`);
    const keyFile = path.join(dir, `${name}-key.pem`);
    await openssl([
        'req', '-x509', ...newEcKey(keyFile), '-subj', `/CN=${commonName}`, '-days', VALID_DAYS, '-out', certFile,
        '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return { certFile, keyFile };
}
/** A key and a certificate for `/CN=<commonName>` signed by `signer`, with `extensions`. */
async function makeLeaf(base, commonName, signer, extensions) {
    const [certFile, keyFile, csrFile, extFile] = [`${base}.pem`, `${base}-key.pem`, `${base}.csr`, `${base}.ext`];
    await openssl(['req', ...newEcKey(keyFile), '-subj', `/CN=${commonName}`, '-out', csrFile]);
    fs.writeFileSync(extFile, ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', ...extensions].join('\n') + '\n');
    await openssl([
        'x509', '-req', '-in', csrFile, '-CA', signer.certFile, '-CAkey', signer.keyFile, '-set_serial', randomSerial(),
        '-days', VALID_DAYS, '-extfile', extFile, '-out', certFile,
    ]);
    return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8'), certFile, keyFile, dn: `CN=${commonName}` };
}
/** `req` arguments for a new unencrypted EC P-256 key, written as PKCS#8 PEM. */
function newEcKey(keyFile) {
    return ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile];
}
/** Distinct serials per certificate, so that no verifier mistakes one for another. */
function randomSerial() {
    return `0x${Array.from({ length: 16 }, () => Math.floor(Math.random() * 16).toString(16)).join('')}1`;
}
async function openssl(args) {
    try {
        await run(OPENSSL, args, { timeout: 30_000 });
    }
    catch (error) {
        const stderr = error.stderr ?? '';
        throw new Error(`${OPENSSL} ${args.join(' ')} failed: ${error.message}\n${stderr}`, { cause: error });
    }
}
//# sourceMappingURL=tls-certs.js.map