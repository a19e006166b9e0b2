package dev.gpugen.spec;

import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * One finding about a spec: the reader's (syntax, types, unknown keys) and the linter's (GPU stack
 * rules) share this shape, so they print, sort and serialise the same way.
 *
 * @param file the spec file as the user named it
 * @param position 1-based line and column of the offending key or value
 * @param severity error, warning or info
 * @param ruleId stable kebab-case id, e.g. {@code spec-unknown-key}
 * @param path where in the spec, e.g. {@code pools[0].instanceType}; root for file-level problems
 * @param message one line saying what is wrong
 * @param hint how to fix it, if there is something useful to say
 */
public record Diagnostic(
    String file,
    Position position,
    Severity severity,
    String ruleId,
    SpecPath path,
    String message,
    Optional<String> hint)
    implements Comparable<Diagnostic> {

  private static final Comparator<Diagnostic> ORDER =
      Comparator.comparing(Diagnostic::file)
          .thenComparing(Diagnostic::position)
          .thenComparing(Diagnostic::severity)
          .thenComparing(Diagnostic::ruleId)
          .thenComparing(Diagnostic::message);

  public Diagnostic {
    Objects.requireNonNull(file);
    Objects.requireNonNull(position);
    Objects.requireNonNull(severity);
    Objects.requireNonNull(ruleId);
    Objects.requireNonNull(path);
    Objects.requireNonNull(message);
    Objects.requireNonNull(hint);
    // One line, and safe to print: input echoed in a message (a key with a newline, an escape
    // sequence) must neither break the line format nor drive the terminal.
    file = Printable.text(file);
    message = Printable.text(message);
    hint = hint.map(Printable::text);
  }

  public Diagnostic withSeverity(Severity s) {
    return new Diagnostic(file, position, s, ruleId, path, message, hint);
  }

  @Override
  public int compareTo(Diagnostic o) {
    return ORDER.compare(this, o);
  }

  // Written out, with the value the generated ones compute, for the reason given in Position.
  @Override
  public boolean equals(Object o) {
    return o instanceof Diagnostic d
        && file.equals(d.file)
        && position.equals(d.position)
        && severity == d.severity
        && ruleId.equals(d.ruleId)
        && path.equals(d.path)
        && message.equals(d.message)
        && hint.equals(d.hint);
  }

  @Override
  public int hashCode() {
    int h = file.hashCode();
    h = 31 * h + position.hashCode();
    h = 31 * h + severity.hashCode();
    h = 31 * h + ruleId.hashCode();
    h = 31 * h + path.hashCode();
    h = 31 * h + message.hashCode();
    return 31 * h + hint.hashCode();
  }
}
