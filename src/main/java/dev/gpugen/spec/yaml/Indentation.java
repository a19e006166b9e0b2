package dev.gpugen.spec.yaml;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A hint for a YAML syntax error caused by indentation. The parser's own words ("expected <block
 * end>, but found '<block mapping start>'") describe its state, not the file; this says which line
 * is indented how far and what the keys around it use.
 */
final class Indentation {
  private Indentation() {}

  /** One line's indentation and the key it starts, if any. */
  private record Line(int number, int indent, int keyColumn, String key, boolean hasValue) {}

  /**
   * The hint for an error reported on {@code lineNumber} (1-based), or empty when the line's
   * indentation agrees with the lines above it.
   */
  static Optional<String> hint(String text, int lineNumber) {
    String[] lines = text.split("\r?\n", -1);
    if (lineNumber < 1 || lineNumber > lines.length) {
      return Optional.empty();
    }
    Optional<Line> at = parse(lineNumber, lines[lineNumber - 1]);
    if (at.isEmpty()) {
      return Optional.empty();
    }
    Line bad = at.get();
    // The lines above, nearest first: the previous one, then each less indented ancestor.
    List<Line> around = new ArrayList<>();
    for (int n = lineNumber - 1; n >= 1; n--) {
      Optional<Line> l = parse(n, lines[n - 1]);
      if (l.isEmpty()) {
        continue;
      }
      if (around.isEmpty() || l.get().indent() < around.get(around.size() - 1).indent()) {
        around.add(l.get());
      }
      if (l.get().indent() == 0) {
        break;
      }
    }
    if (around.isEmpty()) {
      return Optional.empty();
    }
    Line previous = around.get(0);
    if (bad.indent() > previous.indent() && previous.hasValue()) {
      return Optional.of(
          "line "
              + bad.number()
              + " is indented by "
              + spaces(bad.indent())
              + ", deeper than "
              + name(previous)
              + " ("
              + spaces(previous.indent())
              + "), which already has a value: indent it by "
              + spaces(previous.indent())
              + " to make it a sibling of "
              + previous.key());
    }
    if (around.stream().anyMatch(l -> l.indent() == bad.indent() || l.keyColumn() == bad.indent())
        || bad.indent() > previous.indent()) {
      return Optional.empty();
    }
    StringBuilder uses = new StringBuilder();
    for (int i = 0; i < around.size(); i++) {
      Line l = around.get(i);
      uses.append(i == 0 ? "" : i == around.size() - 1 ? " or " : ", ")
          .append(l.indent())
          .append(" (")
          .append(l.key())
          .append(", line ")
          .append(l.number())
          .append(")");
    }
    return Optional.of(
        "line "
            + bad.number()
            + " is indented by "
            + spaces(bad.indent())
            + ", but the keys above it use "
            + uses
            + ": keys of one mapping line up, so indent it like the mapping it belongs to");
  }

  private static String name(Line l) {
    return l.key() + " on line " + l.number();
  }

  private static String spaces(int n) {
    return n + (n == 1 ? " space" : " spaces");
  }

  /** A line that holds a key or a list item; blank lines, comments and flow lines are skipped. */
  private static Optional<Line> parse(int number, String line) {
    int indent = 0;
    while (indent < line.length() && line.charAt(indent) == ' ') {
      indent++;
    }
    String rest = line.substring(indent);
    if (rest.isEmpty() || rest.startsWith("#")) {
      return Optional.empty();
    }
    int keyColumn = indent;
    while (rest.startsWith("- ")) {
      rest = rest.substring(2);
      keyColumn += 2;
      while (rest.startsWith(" ")) {
        rest = rest.substring(1);
        keyColumn++;
      }
    }
    int colon = rest.indexOf(": ");
    if (colon < 0 && rest.endsWith(":")) {
      colon = rest.length() - 1;
    }
    String key = colon > 0 ? rest.substring(0, colon).strip() : "";
    if (key.isEmpty() || key.contains(" ") || key.startsWith("{") || key.startsWith("[")) {
      // A list item without a key ("- a"), or text that is not a key: its indent still counts.
      return Optional.of(new Line(number, indent, keyColumn, Quote.forMessage(rest), true));
    }
    String value = rest.substring(colon + 1).strip();
    boolean hasValue =
        !value.isEmpty()
            && !value.startsWith("#")
            && !value.startsWith("&")
            && !value.startsWith("|")
            && !value.startsWith(">");
    return Optional.of(new Line(number, indent, keyColumn, key, hasValue));
  }
}
