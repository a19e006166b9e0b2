package dev.gpugen.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Collects every finding of a run (never stops at the first), then hands them out sorted. */
public final class Diagnostics {
  private final SourceMap sources;
  private final TreeSet<Diagnostic> all = new TreeSet<>();

  public Diagnostics(SourceMap sources) {
    this.sources = sources;
  }

  public SourceMap sources() {
    return sources;
  }

  /** Reports at the value written at {@code path}. */
  public void error(String ruleId, SpecPath path, String message, String hint) {
    add(Severity.ERROR, ruleId, path, sources.valueOf(path), message, hint);
  }

  /** Reports at the key written at {@code path} (unknown keys, duplicate names). */
  public void errorAtKey(String ruleId, SpecPath path, String message, String hint) {
    add(Severity.ERROR, ruleId, path, sources.keyOf(path), message, hint);
  }

  public void add(
      Severity severity,
      String ruleId,
      SpecPath path,
      Position position,
      String message,
      String hint) {
    all.add(
        new Diagnostic(
            sources.file(),
            position,
            severity,
            ruleId,
            path,
            message,
            Optional.ofNullable(hint).filter(h -> !h.isBlank())));
  }

  public void add(Diagnostic d) {
    all.add(d);
  }

  public boolean hasErrors() {
    return all.stream().anyMatch(d -> d.severity() == Severity.ERROR);
  }

  public List<Diagnostic> sorted() {
    return List.copyOf(new ArrayList<>(all));
  }
}
