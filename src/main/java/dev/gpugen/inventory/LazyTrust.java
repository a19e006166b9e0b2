package dev.gpugen.inventory;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's default trust manager (its cacerts, or {@code javax.net.ssl.trustStore}), loaded at the
 * first TLS handshake instead of when the HTTP client is built. The SDK's url-connection client
 * builds its TLS context at once, and parsing the trust store was a third of a cold listing's CPU
 * against an endpoint that needs none ({@code http://} stand-ins, emulators). Every check is the
 * default manager's own: each call is passed on unchanged, the socket or engine with it, so host
 * name and algorithm checks are the same.
 */
final class LazyTrust extends X509ExtendedTrustManager {
  private volatile X509ExtendedTrustManager loaded;

  /** A trust manager list of one lazy default manager, for the SDK's TLS settings. */
  static TrustManager[] managers() {
    return new TrustManager[] {new LazyTrust()};
  }

  private X509ExtendedTrustManager manager() throws CertificateException {
    X509ExtendedTrustManager m = loaded;
    if (m != null) {
      return m;
    }
    synchronized (this) {
      if (loaded == null) {
        try {
          TrustManagerFactory factory =
              TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
          factory.init((KeyStore) null);
          for (TrustManager t : factory.getTrustManagers()) {
            if (t instanceof X509ExtendedTrustManager x) {
              loaded = x;
              break;
            }
          }
        } catch (GeneralSecurityException e) {
          throw new CertificateException("cannot load the default trust store: " + e, e);
        }
        if (loaded == null) {
          throw new CertificateException("the JDK has no X.509 trust manager");
        }
      }
      return loaded;
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    manager().checkClientTrusted(chain, authType, socket);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    manager().checkServerTrusted(chain, authType, socket);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    manager().checkClientTrusted(chain, authType, engine);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    manager().checkServerTrusted(chain, authType, engine);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    manager().checkClientTrusted(chain, authType);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    manager().checkServerTrusted(chain, authType);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    try {
      return manager().getAcceptedIssuers();
    } catch (CertificateException e) {
      return new X509Certificate[0];
    }
  }
}
