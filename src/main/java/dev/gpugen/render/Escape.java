package dev.gpugen.render;

import dev.gpugen.spec.Printable;

/**
 * One escaper per target language. Each returns a complete literal (quotes included), so a template
 * can never forget half of the job. The reader already restricts most values to safe charsets;
 * these are the second line of defence and are tested with hostile strings.
 */
public final class Escape {
  private Escape() {}

  /**
   * An HCL quoted string: {@code \ " } and control characters escaped with the escapes HCL accepts
   * ({@code \n \r \t \" \\ \\uNNNN}), and template sequences {@code ${} / {@code %{} doubled so they
   * stay literal text. Never {@code \/}: HCL rejects it.
   */
  public static String hcl(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      char next = i + 1 < s.length() ? s.charAt(i + 1) : 0;
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '"' -> b.append("\\\"");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        case '$', '%' -> {
          b.append(c);
          if (next == '{') {
            b.append(c);
          }
        }
        default -> appendPrintable(b, c);
      }
    }
    return b.append('"').toString();
  }

  /**
   * A YAML double-quoted scalar that PyYAML (YAML 1.1) and YAML 1.2 parsers both read back as the
   * same string: {@code on}, {@code 0755}, {@code 1e3} or {@code 2024-01-01} stay strings.
   */
  public static String yaml(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '"' -> b.append("\\\"");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> appendPrintable(b, c);
      }
    }
    return b.append('"').toString();
  }

  /**
   * A YAML string Ansible never templates: {@code !unsafe "..."}. Use it for every spec-derived
   * string in vars files, which Ansible otherwise treats as trusted Jinja.
   */
  public static String ansible(String s) {
    return "!unsafe " + yaml(s);
  }

  /** A POSIX shell word in single quotes; a single quote becomes {@code '\''}. */
  public static String sh(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < 0x20 || s.charAt(i) == 0x7f) {
        throw new IllegalArgumentException("control character in a shell word");
      }
    }
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /**
   * Text for a one-line comment, as plain printable text: what could end the line (a line feed, a
   * line separator, NEL) or change what a reader sees (other controls, ESC, C1, bidi overrides,
   * CVE-2021-42574) is written as a visible escape ({@code \n}, {@code \x1b}, {@code \u202e}) by
   * the one terminal escaper, {@link Printable}.
   */
  public static String comment(String s) {
    return Printable.text(s);
  }

  /**
   * Text for a one-line {@code #} comment inside a Jinja template (Ansible's {@code .j2} files):
   * {@link #comment} with every brace replaced, so that no {@code {{ }}}, {@code {% %}} or {@code
   * {# #}} can start in it. Ansible renders those templates, so a brace there would be code.
   */
  public static String jinjaComment(String s) {
    return comment(s).replace('{', '(').replace('}', ')');
  }

  private static void appendPrintable(StringBuilder b, char c) {
    // C0/C1 controls, DEL and the Unicode line separators are escaped; everything else is literal.
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029' || c == '\uFEFF') {
      b.append(String.format("\\u%04X", (int) c));
    } else {
      b.append(c);
    }
  }
}
