package dev.gpugen.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.gpugen.plan.Toleration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The records whose equals and hashCode are written out (for start-up time) keep a record's
 * contract: equal exactly when every component is, and equal values hash alike.
 */
class WrittenOutEqualityTest {
  private static void assertSameAndEachComponentCounts(Object a, Object same, List<?> others) {
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    for (Object other : others) {
      assertNotEquals(a, other, "differs from " + other);
    }
    assertNotEquals(a, null);
    assertNotEquals(a, "x");
  }

  @Test
  void position() {
    assertSameAndEachComponentCounts(
        new Position(3, 7),
        new Position(3, 7),
        List.of(new Position(4, 7), new Position(3, 8), new Position(7, 3)));
    assertEquals(31 * 3 + 7, new Position(3, 7).hashCode(), "the record formula");
  }

  @Test
  void specPath() {
    assertSameAndEachComponentCounts(
        SpecPath.of("pools", 0, "name"),
        SpecPath.of("pools", 0, "name"),
        List.of(SpecPath.of("pools", 1, "name"), SpecPath.of("pools", 0), SpecPath.ROOT));
  }

  @Test
  void diagnostic() {
    Diagnostic d = diagnostic("a.yaml", 1, Severity.ERROR, "r", "p", "m", Optional.of("h"));
    assertSameAndEachComponentCounts(
        d,
        diagnostic("a.yaml", 1, Severity.ERROR, "r", "p", "m", Optional.of("h")),
        List.of(
            diagnostic("b.yaml", 1, Severity.ERROR, "r", "p", "m", Optional.of("h")),
            diagnostic("a.yaml", 2, Severity.ERROR, "r", "p", "m", Optional.of("h")),
            diagnostic("a.yaml", 1, Severity.WARNING, "r", "p", "m", Optional.of("h")),
            diagnostic("a.yaml", 1, Severity.ERROR, "s", "p", "m", Optional.of("h")),
            diagnostic("a.yaml", 1, Severity.ERROR, "r", "q", "m", Optional.of("h")),
            diagnostic("a.yaml", 1, Severity.ERROR, "r", "p", "n", Optional.of("h")),
            diagnostic("a.yaml", 1, Severity.ERROR, "r", "p", "m", Optional.empty())));
  }

  @Test
  void toleration() {
    assertSameAndEachComponentCounts(
        new Toleration("k", "Equal", "v", "NoSchedule"),
        new Toleration("k", "Equal", "v", "NoSchedule"),
        List.of(
            new Toleration("j", "Equal", "v", "NoSchedule"),
            new Toleration("k", "Exists", "v", "NoSchedule"),
            new Toleration("k", "Equal", "w", "NoSchedule"),
            new Toleration("k", "Equal", "v", "NoExecute")));
  }

  private static Diagnostic diagnostic(
      String file,
      int line,
      Severity severity,
      String rule,
      String path,
      String message,
      Optional<String> hint) {
    return new Diagnostic(
        file, new Position(line, 1), severity, rule, SpecPath.of(path), message, hint);
  }
}
