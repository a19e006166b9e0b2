package dev.gpugen.inventory;

/**
 * The formats of {@link InventoryBuilder} that every host's values are checked against, as loops
 * over the characters: each is exactly its pattern there ({@code FormatsTest} compares them on
 * random strings), at a fraction of the cost of a regular expression under the wrapper's C1-only
 * JIT, where the patterns took a fifth of a 16,000-host build.
 */
final class Formats {
  private Formats() {}

  /** {@link InventoryBuilder#INSTANCE_ID}: {@code i-} and 8 or 17 lower-case hex digits. */
  static boolean instanceId(String s) {
    int n = s.length();
    if ((n != 10 && n != 19) || s.charAt(0) != 'i' || s.charAt(1) != '-') {
      return false;
    }
    for (int i = 2; i < n; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  /** {@link InventoryBuilder#IPV4}: four decimal octets 0-255 without leading zeros. */
  static boolean ipv4(String s) {
    int n = s.length();
    int i = 0;
    for (int octet = 0; octet < 4; octet++) {
      if (octet > 0) {
        if (i >= n || s.charAt(i) != '.') {
          return false;
        }
        i++;
      }
      int start = i;
      int value = 0;
      while (i < n && i - start < 3 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        value = value * 10 + (s.charAt(i) - '0');
        i++;
      }
      int digits = i - start;
      if (digits == 0 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
        return false;
      }
    }
    return i == n;
  }

  /**
   * {@link InventoryBuilder#DNS_NAME}: 1 to 253 characters, labels of 1 to 63 letters, digits and
   * inner hyphens, separated by single dots.
   */
  static boolean dnsName(String s) {
    int n = s.length();
    if (n < 1 || n > 253) {
      return false;
    }
    int label = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c == '.') {
        if (label == 0 || s.charAt(i - 1) == '-') {
          return false;
        }
        label = 0;
      } else if (alnum(c) || (c == '-' && label > 0)) {
        if (++label > 63) {
          return false;
        }
      } else {
        return false;
      }
    }
    return label > 0 && s.charAt(n - 1) != '-';
  }

  /**
   * The host name pattern of {@link InventoryBuilder#usableHostname}: a letter or digit, then up to
   * 252 letters, digits, dots, underscores and hyphens.
   */
  static boolean hostname(String s) {
    int n = s.length();
    if (n < 1 || n > 253 || !alnum(s.charAt(0))) {
      return false;
    }
    for (int i = 1; i < n; i++) {
      char c = s.charAt(i);
      if (!(alnum(c) || c == '.' || c == '_' || c == '-')) {
        return false;
      }
    }
    return true;
  }

  private static boolean alnum(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  }
}
