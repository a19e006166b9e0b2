package dev.gpugen.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gpugen.Gpugen;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.Severity;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Prints findings the way compilers do: position, severity, rule, message, source line, caret. */
final class DiagnosticPrinter {
  /** Loaded only for --format json: data binding is a large part of a cold JVM's start-up. */
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }

  private DiagnosticPrinter() {}

  static void text(PrintWriter out, Gpugen.Checked c) {
    String[] lines = new String(c.source(), StandardCharsets.UTF_8).split("\r?\n", -1);
    for (Diagnostic d : c.diagnostics()) {
      out.println(
          d.file()
              + ":"
              + d.position().line()
              + ":"
              + d.position().column()
              + ": "
              + d.severity().label()
              + "["
              + d.ruleId()
              + "]: "
              + d.message());
      int ln = d.position().line();
      if (ln <= lines.length && !lines[ln - 1].isBlank() && c.source().length <= (1 << 20)) {
        String gutter = String.format("%5d | ", ln);
        String src = printable(lines[ln - 1]);
        int col = Math.min(d.position().column(), src.length() + 1);
        if (src.length() > 160) {
          // Show a window around the column rather than a screen-wide line.
          int from = Math.max(0, col - 80);
          src = src.substring(from, Math.min(src.length(), from + 160));
          col -= from;
        }
        out.println(gutter + src);
        out.println(" ".repeat(gutter.length() - 2) + "| " + " ".repeat(col - 1) + "^");
      }
      d.hint().ifPresent(h -> out.println("  hint: " + h));
    }
  }

  static String summary(List<Diagnostic> ds) {
    long errors = ds.stream().filter(d -> d.severity() == Severity.ERROR).count();
    long warnings = ds.stream().filter(d -> d.severity() == Severity.WARNING).count();
    long infos = ds.stream().filter(d -> d.severity() == Severity.INFO).count();
    String s = plural(errors, "error") + ", " + plural(warnings, "warning");
    return infos > 0 ? s + ", " + plural(infos, "note") : s;
  }

  static void json(PrintWriter out, List<Gpugen.Checked> checked) {
    ObjectNode root = Mapper.JSON.createObjectNode();
    ArrayNode arr = root.putArray("diagnostics");
    int errors = 0;
    int warnings = 0;
    for (Gpugen.Checked c : checked) {
      for (Diagnostic d : c.diagnostics()) {
        ObjectNode o = arr.addObject();
        o.put("file", d.file());
        o.put("line", d.position().line());
        o.put("column", d.position().column());
        o.put("severity", d.severity().label());
        o.put("rule", d.ruleId());
        o.put("path", d.path().toString());
        o.put("message", d.message());
        d.hint().ifPresent(h -> o.put("hint", h));
        errors += d.severity() == Severity.ERROR ? 1 : 0;
        warnings += d.severity() == Severity.WARNING ? 1 : 0;
      }
    }
    root.put("errors", errors);
    root.put("warnings", warnings);
    out.println(root.toPrettyString());
  }

  /**
   * Tabs and control characters would shift or break the caret line; escape sequences and bidi
   * controls would drive the terminal or reorder what the reader sees.
   */
  private static String printable(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c == '\t' ? ' ' : Printable.unsafe(c) ? '?' : c);
    }
    return b.toString();
  }

  private static String plural(long n, String word) {
    return n + " " + word + (n == 1 ? "" : "s");
  }
}
