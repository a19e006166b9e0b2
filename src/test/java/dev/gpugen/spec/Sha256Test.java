package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class Sha256Test {
  private static final HexFormat HEX = HexFormat.of();

  /** RFC 4231 (https://www.rfc-editor.org/rfc/rfc4231), HMAC-SHA-256 test cases 1, 2 and 6. */
  @Test
  void hmacMatchesTheRfc4231TestVectors() {
    byte[] key1 = new byte[20];
    Arrays.fill(key1, (byte) 0x0b);
    assertEquals(
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        HEX.formatHex(Sha256.hmac(key1, "Hi There".getBytes(StandardCharsets.US_ASCII))));
    assertEquals(
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        HEX.formatHex(
            Sha256.hmac(
                "Jefe".getBytes(StandardCharsets.US_ASCII),
                "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII))));
    // A key longer than the block is hashed first.
    byte[] key6 = new byte[131];
    Arrays.fill(key6, (byte) 0xaa);
    assertEquals(
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
        HEX.formatHex(
            Sha256.hmac(
                key6,
                "Test Using Larger Than Block-Size Key - Hash Key First"
                    .getBytes(StandardCharsets.US_ASCII))));
  }

  @Test
  void hmacIsTheJcesHmacSha256() throws Exception {
    Random random = new Random(20261201);
    for (int i = 0; i < 200; i++) {
      byte[] key = new byte[1 + random.nextInt(150)];
      byte[] message = new byte[random.nextInt(300)];
      random.nextBytes(key);
      random.nextBytes(message);
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      assertArrayEquals(mac.doFinal(message), Sha256.hmac(key, message), "case " + i);
    }
  }
}
