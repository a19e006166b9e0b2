package dev.gpugen.lint;

import dev.gpugen.spec.Diagnostic;
import dev.gpugen.spec.Position;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Where a rule reports; it stamps the rule's id and severity and looks up the position. */
public final class Findings {
  private final SourceMap sources;
  private final List<Diagnostic> out = new ArrayList<>();
  private final Set<String> seen = new HashSet<>();
  private Rule current;

  Findings(SourceMap sources) {
    this.sources = sources;
  }

  void use(Rule rule) {
    current = rule;
  }

  /**
   * Reports at the value written at {@code path} (or its nearest written ancestor). A finding
   * identical to one already reported (same rule, path and message: two pools sharing one
   * cluster-wide value) is reported once.
   */
  public void report(SpecPath path, String message, String hint) {
    report(path, sources.valueOf(path), message, hint);
  }

  /**
   * Reports at the key written at {@code path}: for a block mapping whose own line says what is
   * meant ({@code environments.prod:}), where its value starts a line further down.
   */
  public void reportAtKey(SpecPath path, String message, String hint) {
    report(path, sources.keyOf(path), message, hint);
  }

  private void report(SpecPath path, Position at, String message, String hint) {
    if (!seen.add(current.id() + "\u0000" + path + "\u0000" + message)) {
      return;
    }
    out.add(
        new Diagnostic(
            sources.file(),
            at,
            current.defaultSeverity(),
            current.id(),
            path,
            message,
            Optional.ofNullable(hint)));
  }

  /** Every string the spec file holds, keys and values, with its path (the secret scan's input). */
  public List<SourceMap.Text> writtenTexts() {
    return sources.texts();
  }

  /** Whether the spec wrote {@code path} itself, rather than leaving it to a default. */
  public boolean isWritten(SpecPath path) {
    return sources.isWritten(path);
  }

  /**
   * Where pool {@code pool}'s resolved software value {@code keys} was written: the pool's own
   * {@code software:} block when it overrides the key, else the cluster-wide one (which may be an
   * {@code --env} overlay's value, or a default that points at the {@code software} section).
   */
  public SpecPath software(int pool, String... keys) {
    return resolved(pool, "software", keys);
  }

  /**
   * Where pool {@code pool}'s resolved validation value {@code keys} was written: the pool's own
   * {@code validation:} block when it sets the key, else the cluster-wide one.
   */
  public SpecPath validation(int pool, String... keys) {
    return resolved(pool, "validation", keys);
  }

  private SpecPath resolved(int pool, String section, String... keys) {
    SpecPath own = SpecPath.of("pools", pool, section);
    SpecPath cluster = SpecPath.of(section);
    for (String k : keys) {
      own = own.key(k);
      cluster = cluster.key(k);
    }
    return isWritten(own) ? own : cluster;
  }

  List<Diagnostic> all() {
    return out;
  }
}
