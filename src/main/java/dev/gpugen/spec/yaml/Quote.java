package dev.gpugen.spec.yaml;

import dev.gpugen.spec.Printable;

/** Shows a user's value inside a one-line message without letting it break the line. */
final class Quote {
  private Quote() {}

  static String forMessage(String s) {
    StringBuilder b = new StringBuilder("\"");
    int limit = Math.min(s.length(), 80);
    for (int i = 0; i < limit; i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (Printable.unsafe(c)) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    if (s.length() > limit) {
      b.append('…');
    }
    return b.append('"').toString();
  }
}
