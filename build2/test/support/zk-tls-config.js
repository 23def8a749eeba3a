/**
 * The zoo.cfg entries that make a test ZooKeeper (3.8) serve TLS on a `secureClientPort`, next to
 * its plain `clientPort` (which the harness keeps for its four-letter-word readiness checks).
 *
 * Facts from ZooKeeper 3.8's sources (release-3.8.0):
 *   - QuorumPeerConfig.parse turns every zoo.cfg key it does not know into the system property
 *     `zookeeper.<key>`, before the server creates its connection factories. So
 *     `serverCnxnFactory=` here is `-Dzookeeper.serverCnxnFactory=`, which
 *     ServerCnxnFactory.createFactory() reads; no JVM flag is needed. Only the Netty factory
 *     speaks TLS (the default NIO one refuses a secureClientPort), and it then serves both ports.
 *   - The `ssl.*` keys become `zookeeper.ssl.*`, ClientX509Util's prefix. `ssl.clientAuth` is
 *     NEED when unset; `ssl.keyStore.type=PEM` takes a file holding the PKCS#8 key and the
 *     certificate chain; `ssl.trustStore.type=PEM` a file of CA certificates.
 *   - With a secureClientPort, QuorumPeerConfig.configureSSLAuth registers `authProvider.x509`
 *     itself; we set it anyway so the config says what serves `x509` ACLs. The id of a client is
 *     its certificate's subject DN (X500Principal.getName(), e.g. 'CN=alice'); with clientAuth
 *     'want', a client without a certificate is let in with no x509 id.
 */
import fs from 'node:fs';
import path from 'node:path';
/**
 * Jars of Debian's netty that TLS needs and zookeeper.jar's manifest Class-Path leaves out. Without
 * netty-codec the server starts and binds the secure port, then closes every TLS connection
 * (NoClassDefFoundError io/netty/handler/codec/ByteToMessageDecoder, the base of SslHandler).
 */
export const DEBIAN_NETTY_JARS = ['/usr/share/java/netty-codec.jar'];
const NETTY_FACTORY = 'org.apache.zookeeper.server.NettyServerCnxnFactory';
const X509_PROVIDER = 'org.apache.zookeeper.server.auth.X509AuthenticationProvider';
/**
 * Writes the server's PEM key store and trust store under `<dir>/tls/` and returns the zoo.cfg
 * entries for TLS on 127.0.0.1:`securePort`. Called at every launch, so a restart re-reads them.
 */
export function zkTlsConfig(dir, securePort, { clientAuth, certs, protocol }) {
    const tlsDir = path.join(dir, 'tls');
    fs.mkdirSync(tlsDir, { recursive: true });
    const keyStore = path.join(tlsDir, 'keystore.pem');
    const trustStore = path.join(tlsDir, 'truststore.pem');
    fs.writeFileSync(keyStore, certs.server.key.trimEnd() + '\n' + certs.server.cert);
    fs.writeFileSync(trustStore, certs.ca.cert);
    return {
        serverCnxnFactory: NETTY_FACTORY,
        secureClientPort: securePort,
        secureClientPortAddress: '127.0.0.1',
        'ssl.keyStore.location': keyStore,
        'ssl.keyStore.type': 'PEM',
        'ssl.trustStore.location': trustStore,
        'ssl.trustStore.type': 'PEM',
        'ssl.clientAuth': clientAuth,
        'authProvider.x509': X509_PROVIDER,
        // Naming the protocol is not enough: with only TLS 1.2 suites enabled, no handshake succeeds.
        ...(protocol === 'TLSv1.3' && {
            'ssl.protocol': 'TLSv1.3',
            'ssl.enabledProtocols': 'TLSv1.3',
            'ssl.ciphersuites': 'TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384',
        }),
    };
}
//# sourceMappingURL=zk-tls-config.js.map