package dev.gpugen.render;

import java.util.ArrayList;
import java.util.List;

/**
 * A small check of the layout {@code terraform fmt} produces (hclwrite's format.go): two spaces of
 * indent per line that leaves brackets open, the {@code =} of consecutive single-line arguments
 * aligned one space after the longest name, one space after it, no tabs, no trailing blanks, no
 * double blank lines, one final newline. Lines that open a multi-line value take no part in
 * alignment, as in hclwrite. It does not re-space tokens inside expressions; the goldens were also
 * checked with the real {@code terraform fmt -check} by TerraformPlanTest.
 */
final class TerraformFormat {
  private TerraformFormat() {}

  /** One source line, lexed just enough: brackets outside strings, and the first {@code =}. */
  private record Line(int number, String text, int indent, int net, int assign) {}

  /** The problems, as {@code line N: ...}; empty when the text is formatted. */
  static List<String> check(String text) {
    List<String> problems = new ArrayList<>();
    if (!text.endsWith("\n") || text.endsWith("\n\n")) {
      problems.add("the file must end with exactly one newline");
    }
    if (text.contains("\r")) {
      problems.add("carriage return: lines must end with LF only");
    }
    String[] raw = text.split("\n", -1);
    List<Line> lines = new ArrayList<>();
    Lexer lexer = new Lexer();
    for (int i = 0; i < raw.length - 1; i++) {
      lines.add(lexer.line(i + 1, raw[i]));
    }
    // Indent as hclwrite's formatIndent: a line that leaves brackets open adds one level (however
    // many it opens); a line that closes more than it opens drops the levels it closes, and is
    // itself indented at the level it leaves.
    List<Integer> levels = new ArrayList<>();
    boolean previousBlank = false;
    for (Line l : lines) {
      String t = l.text();
      if (t.contains("\t")) {
        problems.add("line " + l.number() + ": tab");
      }
      if (!t.equals(t.stripTrailing())) {
        problems.add("line " + l.number() + ": trailing whitespace");
      }
      boolean blank = t.isBlank();
      if (blank && previousBlank) {
        problems.add("line " + l.number() + ": two blank lines in a row");
      }
      previousBlank = blank;
      if (blank) {
        continue;
      }
      int want;
      if (l.net() > 0) {
        want = 2 * levels.size();
        levels.add(l.net());
      } else {
        int closed = -l.net();
        while (closed > 0 && !levels.isEmpty()) {
          int top = levels.remove(levels.size() - 1);
          if (closed < top) {
            levels.add(top - closed);
            closed = 0;
          } else {
            closed -= top;
          }
        }
        want = 2 * levels.size();
      }
      if (l.indent() != want) {
        problems.add(
            "line " + l.number() + ": indent " + l.indent() + ", terraform fmt gives " + want);
      }
    }
    if (!levels.isEmpty()) {
      problems.add("brackets do not balance (" + levels + " left open)");
    }
    // Alignment: runs of consecutive lines that each assign a whole single-line value.
    int start = 0;
    while (start < lines.size()) {
      if (lines.get(start).assign() < 0) {
        start++;
        continue;
      }
      int end = start;
      while (end < lines.size() && lines.get(end).assign() >= 0) {
        end++;
      }
      int longest = 0;
      for (int i = start; i < end; i++) {
        Line l = lines.get(i);
        longest = Math.max(longest, l.text().substring(l.indent(), l.assign()).strip().length());
      }
      for (int i = start; i < end; i++) {
        Line l = lines.get(i);
        int want = l.indent() + longest + 1;
        if (l.assign() != want) {
          problems.add(
              "line "
                  + l.number()
                  + ": '=' in column "
                  + (l.assign() + 1)
                  + ", aligned it is in column "
                  + (want + 1));
        }
        if (l.assign() + 1 < l.text().length()
            && (l.text().charAt(l.assign() + 1) != ' '
                || (l.assign() + 2 < l.text().length()
                    && l.text().charAt(l.assign() + 2) == ' '))) {
          problems.add("line " + l.number() + ": one space after '='");
        }
      }
      start = end;
    }
    return problems;
  }

  /** Lexes one line: HCL quoted strings never span lines, so each line starts outside one. */
  private static final class Lexer {
    Line line(int number, String text) {
      int indent = 0;
      while (indent < text.length() && text.charAt(indent) == ' ') {
        indent++;
      }
      int net = 0;
      int assign = -1;
      // Contexts: 's' inside a quoted string, 'i' inside a ${...} or %{...} of one (with the
      // count of braces opened inside it).
      StringBuilder stack = new StringBuilder();
      List<Integer> braces = new ArrayList<>();
      for (int i = indent; i < text.length(); i++) {
        char c = text.charAt(i);
        char ctx = stack.length() == 0 ? 0 : stack.charAt(stack.length() - 1);
        if (ctx == 's') {
          if (c == '\\') {
            i++;
          } else if (c == '"') {
            stack.setLength(stack.length() - 1);
          } else if ((c == '$' || c == '%') && text.startsWith(c + "{", i + 1)) {
            i += 2; // $${ or %%{: literal text
          } else if ((c == '$' || c == '%') && text.startsWith("{", i + 1)) {
            stack.append('i');
            braces.add(0);
            i++;
          }
          continue;
        }
        if (c == '"') {
          stack.append('s');
          continue;
        }
        if (ctx == 'i') {
          int last = braces.size() - 1;
          if (c == '{') {
            braces.set(last, braces.get(last) + 1);
          } else if (c == '}' && braces.get(last) == 0) {
            stack.setLength(stack.length() - 1);
            braces.remove(last);
          } else if (c == '}') {
            braces.set(last, braces.get(last) - 1);
          }
          continue;
        }
        if (c == '#' || text.startsWith("//", i)) {
          break; // a comment runs to the end of the line
        }
        if (c == '{' || c == '[' || c == '(') {
          net++;
        } else if (c == '}' || c == ']' || c == ')') {
          net--;
        } else if (c == '='
            && assign < 0
            && i > indent
            && net == 0
            && !text.startsWith("==", i)
            && !text.startsWith("=>", i)
            && "=!<>".indexOf(text.charAt(i - 1)) < 0) {
          assign = i;
        }
      }
      // As in hclwrite, only a line whose value closes on the line takes part in alignment.
      if (net != 0) {
        assign = -1;
      }
      return new Line(number, text, indent, net, assign);
    }
  }
}
