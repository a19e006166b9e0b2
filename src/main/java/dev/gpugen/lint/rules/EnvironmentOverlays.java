package dev.gpugen.lint.rules;

import dev.gpugen.lint.Findings;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.SourceMap;
import dev.gpugen.spec.SpecPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** What an environment overlay takes from the top of the spec, and who else takes it. */
public final class EnvironmentOverlays {
  private EnvironmentOverlays() {}

  /**
   * For the selected environment overlay, when it takes {@code keys} from the top of the spec
   * rather than setting them itself: another environment that takes them too, the spec's own
   * environment (metadata.environment written at the top) first, else another overlay that sets
   * none; empty when the overlay sets its own or none shares them. A top without an environment is
   * only what the overlays share, not an environment of its own.
   */
  public static Optional<String> inheritedBy(ClusterPlan plan, Findings findings, String... keys) {
    Optional<String> overlay = plan.spec().selectedEnvironment();
    if (overlay.isEmpty() || findings.isWritten(overlayPath(overlay.get(), keys))) {
      return Optional.empty();
    }
    if (findings.isWritten(SpecPath.of("metadata", "environment"))) {
      // The key's text comes first, then the value's. An overlay of the same name is that
      // environment, adjusted: the two are never both deployed.
      Optional<String> own =
          findings.writtenTexts().stream()
              .filter(t -> t.path().equals(SpecPath.of("metadata", "environment")))
              .map(SourceMap.Text::text)
              .reduce((key, value) -> value);
      if (own.isPresent() && !own.get().equals(overlay.get())) {
        return Optional.of("environment " + own.get());
      }
    }
    return plan.spec().environments().stream()
        .filter(e -> !e.equals(overlay.get()) && !findings.isWritten(overlayPath(e, keys)))
        .map(e -> "environment " + e)
        .findFirst();
  }

  private static SpecPath overlayPath(String environment, String... keys) {
    List<Object> segments = new ArrayList<>(List.of("environments", environment));
    segments.addAll(List.of((Object[]) keys));
    return SpecPath.of(segments.toArray());
  }
}
