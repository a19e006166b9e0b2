package dev.gpugen.lint;

import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Where a rule reports; it stamps the rule's id and severity and looks up the position. */
public final class Findings {
  private final SourceMap sources;
  private final List<Diagnostic> out = new ArrayList<>();
  private Rule current;

  Findings(SourceMap sources) {
    this.sources = sources;
  }

  void use(Rule rule) {
    current = rule;
  }

  /** Reports at the value written at {@code path} (or its nearest written ancestor). */
  public void report(SpecPath path, String message, String hint) {
    out.add(
        new Diagnostic(
            sources.file(),
            sources.valueOf(path),
            current.defaultSeverity(),
            current.id(),
            path,
            message,
            Optional.ofNullable(hint)));
  }

  List<Diagnostic> all() {
    return out;
  }
}
