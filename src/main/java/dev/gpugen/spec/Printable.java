package dev.gpugen.spec;

/**
 * Text from input (a spec key, a manifest entry, a node fact, an EC2 tag) made safe to echo on a
 * terminal: a control character could clear the screen or move the cursor and forge an "all good"
 * line, a bidi override could reorder what the reader sees (CVE-2021-42574, "Trojan Source").
 */
public final class Printable {
  private Printable() {}

  /** {@code s} with C0/C1 controls, DEL, bidi controls and line separators as visible escapes. */
  public static String text(String s) {
    StringBuilder b = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      String esc = escape(c);
      if (esc != null && b == null) {
        b = new StringBuilder(s.length() + 16).append(s, 0, i);
      }
      if (b != null) {
        b.append(esc != null ? esc : String.valueOf(c));
      }
    }
    return b == null ? s : b.toString();
  }

  /** Whether {@link #text} would change {@code c}. */
  public static boolean unsafe(char c) {
    return escape(c) != null;
  }

  /** A name for {@code c} in an error message ("ESC", "U+202E"). */
  public static String name(char c) {
    return switch (c) {
      case 0x1b -> "ESC (U+001B)";
      case '\t' -> "TAB (U+0009)";
      case '\n' -> "line feed (U+000A)";
      case '\r' -> "carriage return (U+000D)";
      case 0 -> "NUL (U+0000)";
      case 0x7f -> "DEL (U+007F)";
      default -> {
        String code = String.format("U+%04X", (int) c);
        yield isBidi(c) ? "bidi control " + code : "control character " + code;
      }
    };
  }

  private static String escape(char c) {
    if (c == '\n') {
      return "\\n";
    }
    if (c == '\t') {
      return "\\t";
    }
    if (c == '\r') {
      return "\\r";
    }
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0)) {
      return String.format("\\x%02x", (int) c);
    }
    if (isBidi(c) || c == '\u2028' || c == '\u2029') {
      return String.format("\\u%04x", (int) c);
    }
    return null;
  }

  private static boolean isBidi(char c) {
    return c == '\u061c'
        || c == '\u200e'
        || c == '\u200f'
        || (c >= '\u202a' && c <= '\u202e')
        || (c >= '\u2066' && c <= '\u2069');
  }
}
