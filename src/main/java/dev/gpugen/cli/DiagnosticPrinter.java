package dev.gpugen.cli;

import dev.gpugen.Gpugen;
import dev.gpugen.json.Json;
import dev.gpugen.lint.rules.sec.SecSecretInSpec;
import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Printable;
import dev.gpugen.spec.Severity;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Prints findings the way compilers do: position, severity, rule, message, source line, caret. */
final class DiagnosticPrinter {
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
        // A credential in the spec is a finding, not something to copy into a terminal or log.
        String src = printable(SecSecretInSpec.redact(lines[ln - 1]));
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
    return infos > 0 ? s + ", " + plural(infos, "info") : s;
  }

  /** The findings as JSON, in the style of every gpugen JSON output (sorted keys, two spaces). */
  static void json(PrintWriter out, List<Gpugen.Checked> checked) {
    List<Object> list = new ArrayList<>();
    Map<Severity, Integer> counts = new EnumMap<>(Severity.class);
    for (Severity s : Severity.values()) {
      counts.put(s, 0);
    }
    for (Gpugen.Checked c : checked) {
      for (Diagnostic d : c.diagnostics()) {
        Map<String, Object> o = new TreeMap<>();
        o.put("file", d.file());
        o.put("line", d.position().line());
        o.put("column", d.position().column());
        o.put("severity", d.severity().label());
        o.put("rule", d.ruleId());
        o.put("path", d.path().toString());
        o.put("message", d.message());
        d.hint().ifPresent(h -> o.put("hint", h));
        list.add(o);
        counts.merge(d.severity(), 1, Integer::sum);
      }
    }
    Map<String, Object> root = new TreeMap<>();
    root.put("diagnostics", list);
    root.put("errors", counts.get(Severity.ERROR));
    root.put("warnings", counts.get(Severity.WARNING));
    root.put("infos", counts.get(Severity.INFO));
    out.println(Json.writeAscii(root));
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
