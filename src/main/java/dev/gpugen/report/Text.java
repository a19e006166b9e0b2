package dev.gpugen.report;

import dev.gpugen.spec.Printable;
import java.util.Locale;

/**
 * Report text made safe for the page and the JUnit file. Everything in a report came from a node
 * (host names, measured output): control and bidi characters become visible escapes ({@link
 * Printable}), characters XML 1.0 cannot carry (lone surrogates, U+FFFE, U+FFFF) too, then the
 * markup characters are escaped for where the text lands.
 */
final class Text {
  private Text() {}

  /** Visible escapes for what a reader or an XML parser must not get raw. */
  static String clean(String s) {
    String t = Printable.text(s);
    StringBuilder b = null;
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      boolean paired =
          Character.isHighSurrogate(c)
              && i + 1 < t.length()
              && Character.isLowSurrogate(t.charAt(i + 1));
      boolean bad =
          c == '\ufffe'
              || c == '\uffff'
              || (Character.isSurrogate(c) && !paired && !lowOfPair(t, i));
      if (bad && b == null) {
        b = new StringBuilder(t.length() + 8).append(t, 0, i);
      }
      if (b != null) {
        b.append(bad ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return b == null ? t : b.toString();
  }

  private static boolean lowOfPair(String t, int i) {
    return Character.isLowSurrogate(t.charAt(i))
        && i > 0
        && Character.isHighSurrogate(t.charAt(i - 1));
  }

  /** For HTML text and attribute values (double- or single-quoted) alike. */
  static String html(String s) {
    String t = clean(s);
    StringBuilder b = new StringBuilder(t.length() + 16);
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      switch (c) {
        case '&' -> b.append("&amp;");
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  /** For XML text and attribute values alike. */
  static String xml(String s) {
    return html(s).replace("&#39;", "&apos;");
  }

  /** A number as people read it: up to two decimals, no trailing zeros, no locale. */
  static String number(double d) {
    String s = String.format(Locale.ROOT, "%.2f", d);
    s = s.replaceFirst("0+$", "").replaceFirst("\\.$", "");
    return s.equals("-0") ? "0" : s;
  }
}
