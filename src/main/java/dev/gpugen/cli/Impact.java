package dev.gpugen.cli;

import dev.gpugen.failure.Failure;
import dev.gpugen.plan.ChangeImpact;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Printable;
import dev.gpugen.write.Manifest;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Which spec a render folder belongs to (recorded in its manifest), and what a re-render's change
 * does to the running nodes, printed after the render's summary line.
 */
final class Impact {
  private Impact() {}

  /** The spec path as every generated file's header names it: relative to the folder. */
  static String label(Path folder, Path spec) {
    return folder
        .toAbsolutePath()
        .normalize()
        .relativize(spec.toAbsolutePath().normalize())
        .toString()
        .replace('\\', '/');
  }

  /**
   * What the manifest records for a render of {@code plan} from {@code spec} into folder. The
   * driver upgrade is pending when this render changes the driver against the folder's previous
   * render of the same spec, or when that render had one pending: it stays pending until {@code
   * gpugen up} has run {@code upgrade-driver.yml}, so a second {@code up} (or render) still knows.
   */
  static Manifest.Source source(Path folder, Path spec, ClusterPlan plan) {
    Manifest.Source now =
        new Manifest.Source(
            label(folder, spec), plan.spec().selectedEnvironment(), ChangeImpact.values(plan));
    Optional<Manifest.Source> previous = previous(folder).filter(p -> p.sameOwner(now));
    boolean pending =
        previous.isPresent()
            && (previous.get().driverUpgradePending()
                || ChangeImpact.needsDriverUpgrade(
                    ChangeImpact.between(previous.get().values(), plan)));
    return now.withDriverUpgradePending(pending);
  }

  /** The folder's manifest's source; none when unreadable (the write reports why). */
  private static Optional<Manifest.Source> previous(Path folder) {
    if (!Files.isRegularFile(folder.resolve(Manifest.FILE_NAME), LinkOption.NOFOLLOW_LINKS)) {
      return Optional.empty();
    }
    try {
      return Manifest.read(folder).source();
    } catch (Failure e) {
      return Optional.empty();
    }
  }

  /**
   * Prints the changes from the previous render's values to {@code plan}, if there are any, and
   * returns them.
   */
  static List<ChangeImpact.Change> print(
      PrintWriter out, Optional<Manifest.Source> previous, ClusterPlan plan) {
    if (previous.isEmpty()) {
      return List.of();
    }
    List<ChangeImpact.Change> changes = ChangeImpact.between(previous.get().values(), plan);
    if (changes.isEmpty()) {
      return changes;
    }
    out.println("What the change does to running nodes (against the previous render's values):");
    for (ChangeImpact.Change c : changes) {
      StringBuilder b = new StringBuilder("  ");
      b.append(String.format("%-19s", c.kind().label())).append(c.key());
      if (c.before().isPresent() || c.after().isPresent()) {
        b.append(": ")
            .append(c.before().orElse("(none)"))
            .append(" -> ")
            .append(c.after().orElse("(none)"));
      }
      b.append(" (").append(c.why()).append(')');
      out.println(Printable.text(b.toString()));
    }
    out.flush();
    return changes;
  }
}
