package dev.gpugen.spec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** SHA-256 as lower-case hex: the one digest gpugen uses for fingerprints, manifests and caches. */
public final class Sha256 {
  private Sha256() {}

  public static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(digest().digest(bytes));
  }

  public static String hex(String text) {
    return hex(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * HMAC-SHA256 (RFC 2104, https://www.rfc-editor.org/rfc/rfc2104) built on the SUN provider's
   * digest. {@code javax.crypto.Mac} gives the same bytes but first loads the JCE providers and
   * parses the crypto policy files, which is a large part of a cached inventory run.
   */
  public static byte[] hmac(byte[] key, byte[] message) {
    MessageDigest md = digest();
    byte[] block = Arrays.copyOf(key.length > BLOCK ? md.digest(key) : key, BLOCK);
    byte[] inner = new byte[BLOCK];
    byte[] outer = new byte[BLOCK];
    for (int i = 0; i < BLOCK; i++) {
      inner[i] = (byte) (block[i] ^ 0x36);
      outer[i] = (byte) (block[i] ^ 0x5c);
    }
    md.update(inner);
    byte[] innerHash = md.digest(message);
    md.update(outer);
    return md.digest(innerHash);
  }

  /** SHA-256's block size in bytes. */
  private static final int BLOCK = 64;

  /**
   * A fresh digest, cloned from one looked up once: a provider lookup per digest was a visible part
   * of a render, which hashes every file it writes.
   */
  public static MessageDigest digest() {
    try {
      return (MessageDigest) Prototype.SHA256.clone();
    } catch (CloneNotSupportedException e) {
      return lookUp();
    }
  }

  private static MessageDigest lookUp() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Never updated, only cloned, so sharing it between threads is safe. */
  private static final class Prototype {
    static final MessageDigest SHA256 = lookUp();
  }
}
