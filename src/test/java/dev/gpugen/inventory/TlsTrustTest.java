package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.gpugen.failure.Failure;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.RealToolsTest;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trust store is loaded at the first TLS handshake ({@link LazyTrust}), not skipped: against a
 * loopback HTTPS endpoint the listing fails for a certificate the JDK's trust store does not hold
 * and for one issued to another name, and succeeds once {@code javax.net.ssl.trustStore} trusts the
 * right one. keytool (the JDK's) makes the certificates.
 */
@RealToolsTest
class TlsTrustTest {
  private static final String PAGE =
      "<DescribeInstancesResponse xmlns=\"http://ec2.amazonaws.com/doc/2016-11-15/\">"
          + "<reservationSet><item><ownerId>123456789012</ownerId><instancesSet><item>"
          + "<instanceId>i-0123456789abcdef0</instanceId>"
          + "<instanceState><name>running</name></instanceState></item></instancesSet></item>"
          + "</reservationSet></DescribeInstancesResponse>";

  @TempDir Path dir;

  /** A PKCS#12 key store with one self-signed key pair for {@code san}. */
  private Path keyStore(String name, String san) throws Exception {
    Path store = dir.resolve(name + ".p12");
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    RealTools.Result r =
        RealTools.run(
            dir,
            Duration.ofMinutes(2),
            Map.of(),
            List.of(
                keytool.toString(),
                "-genkeypair",
                "-alias",
                "ec2",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=" + name,
                "-ext",
                "SAN=" + san,
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit"));
    assertEquals(0, r.exitCode(), r.output());
    return store;
  }

  private HttpsServer server(Path store) throws Exception {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      ks.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, "changeit".toCharArray());
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), null, null);
    HttpsServer server =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    server.createContext(
        "/",
        exchange -> {
          try (exchange) {
            exchange.getRequestBody().readAllBytes();
            byte[] body = PAGE.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
          }
        });
    server.start();
    return server;
  }

  private List<HostFacts> list(HttpsServer server) throws Failure {
    Map<String, String> env =
        Map.of(
            "GPUGEN_CLUSTER", "demo",
            "GPUGEN_REGIONS", "us-east-1",
            "GPUGEN_EC2_ENDPOINT", "https://127.0.0.1:" + server.getAddress().getPort(),
            "GPUGEN_MAX_ATTEMPTS", "1",
            "GPUGEN_API_CALL_TIMEOUT_SECONDS", "30");
    InventoryConfig config = new InventoryConfigReader(env).read(Optional.empty());
    return new Ec2InstanceSource(config, StandIns.CREDENTIALS).describe("us-east-1");
  }

  private List<HostFacts> trusting(Path store, HttpsServer server) throws Failure {
    System.setProperty("javax.net.ssl.trustStore", store.toString());
    System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
    System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    try {
      return list(server);
    } finally {
      System.clearProperty("javax.net.ssl.trustStore");
      System.clearProperty("javax.net.ssl.trustStorePassword");
      System.clearProperty("javax.net.ssl.trustStoreType");
    }
  }

  @Test
  void aCertificateTheTrustStoreDoesNotHoldIsRefused() throws Exception {
    HttpsServer server = server(keyStore("loopback", "ip:127.0.0.1"));
    try {
      Failure e = assertThrows(Failure.class, () -> list(server));
      assertTrue(e.getMessage().contains("PKIX path building failed"), e.getMessage());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aTrustedCertificateIsAcceptedForItsNameOnly() throws Exception {
    Path right = keyStore("loopback", "ip:127.0.0.1");
    HttpsServer server = server(right);
    try {
      assertEquals(List.of("i-0123456789abcdef0"), ids(trusting(right, server)));
    } finally {
      server.stop(0);
    }
    Path wrong = keyStore("elsewhere", "dns:ec2.example.com");
    HttpsServer impostor = server(wrong);
    try {
      Failure e = assertThrows(Failure.class, () -> trusting(wrong, impostor));
      assertTrue(e.getMessage().contains("127.0.0.1"), e.getMessage());
      assertTrue(e.getMessage().contains("No subject alternative names"), e.getMessage());
    } finally {
      impostor.stop(0);
    }
  }

  private static List<String> ids(List<HostFacts> hosts) {
    return hosts.stream().map(HostFacts::instanceId).toList();
  }
}
