package dev.gpugen.cli;

import dev.gpugen.failure.Failure;
import dev.gpugen.plan.ChangeImpact;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.NodeSettings;
import dev.gpugen.spec.Printable;
import dev.gpugen.write.Manifest;
import dev.gpugen.write.TreeWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

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
    return source(folder, spec, plan, NodeSettings.of(plan), new java.util.TreeMap<>());
  }

  /**
   * What the manifest records for a render of {@code plan} from {@code spec} into folder, with the
   * node settings it accepted ({@link Kept#accepted}), those --allow-replace allowed ({@link
   * Kept#allowed}) and whether a driver upgrade is pending.
   */
  static Manifest.Source source(
      Path folder,
      Path spec,
      ClusterPlan plan,
      SortedMap<String, SortedMap<String, Object>> accepted,
      SortedMap<String, SortedMap<String, Object>> allowed) {
    SortedMap<String, String> values = new TreeMap<>(ChangeImpact.values(plan));
    values.putAll(NodeSettings.record(accepted));
    values.putAll(NodeSettings.recordAllowed(allowed));
    Manifest.Source now =
        new Manifest.Source(label(folder, spec), plan.spec().selectedEnvironment(), values);
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
   * The pools whose node keys a render into {@code folder} would renumber
   * (ChangeImpact.renumbered): a node destroyed and another launched where the spec only deleted a
   * retire entry.
   */
  static SortedMap<String, String> renumbered(Path folder, ClusterPlan plan) {
    return previous(folder)
        .map(src -> ChangeImpact.renumbered(src.values(), plan))
        .orElse(new TreeMap<>());
  }

  /**
   * What a render of {@code plan} into {@code folder} keeps from the previous render there: its
   * placement group names ({@link #placementKept}), and the node settings it accepts ({@link
   * NodeSettings#accepted}: the current ones with {@code allow}, else those its previous render
   * accepted) and writes into accepted_node_settings ({@link NodeSettings#allowed}: the current
   * ones with {@code allow}, else those an earlier --allow-replace into the folder accepted), from
   * one read of the folder's manifest.
   */
  record Kept(
      ClusterPlan plan,
      SortedMap<String, SortedMap<String, Object>> accepted,
      SortedMap<String, SortedMap<String, Object>> allowed) {}

  static Kept kept(Path folder, ClusterPlan plan, boolean allow) {
    SortedMap<String, String> recorded = recorded(folder, plan);
    ClusterPlan kept = plan.keepingPlacementGroups(recorded);
    return new Kept(
        kept,
        NodeSettings.accepted(recorded, kept, allow),
        NodeSettings.allowed(recorded, kept, allow));
  }

  /**
   * {@code plan} with the placement group names the previous render into {@code folder} gave its
   * pools, where the strategy is the same ({@link ClusterPlan#keepingPlacementGroups}).
   */
  static ClusterPlan placementKept(Path folder, ClusterPlan plan) {
    return plan.keepingPlacementGroups(recorded(folder, plan));
  }

  /** The values the previous AWS render into {@code folder} recorded; empty for none. */
  private static SortedMap<String, String> recorded(Path folder, ClusterPlan plan) {
    SortedMap<String, String> previous = new TreeMap<>();
    if (plan.aws() && TreeWriter.rendered(folder)) {
      Manifest.read(folder.toAbsolutePath().normalize())
          .source()
          .ifPresent(src -> previous.putAll(src.values()));
    }
    return previous;
  }

  /**
   * Says which pools' nodes Terraform refuses to replace (their settings differ from the accepted
   * ones) and how to allow it, or that --allow-replace allowed it.
   */
  static void printReplacement(
      PrintWriter out,
      SortedMap<String, SortedMap<String, Object>> accepted,
      ClusterPlan plan,
      boolean allowed,
      Optional<Manifest.Source> previous) {
    if (allowed) {
      SortedMap<String, SortedMap<String, Object>> was =
          NodeSettings.accepted(
              previous.map(Manifest.Source::values).orElse(new TreeMap<>()), plan, false);
      NodeSettings.refused(was, plan)
          .forEach(
              (pool, settings) ->
                  out.println(
                      Printable.text(
                          "  allowed            pools["
                              + pool
                              + "]: --allow-replace accepts its new "
                              + String.join(", ", settings)
                              + ": terraform apply replaces every node of the pool; apply with"
                              + " -replace='"
                              + NodeSettings.RECORD
                              + "[\""
                              + pool
                              + "\"]' (gpugen up does) so that the state records them")));
      out.flush();
      return;
    }
    SortedMap<String, java.util.List<String>> refused = NodeSettings.refused(accepted, plan);
    refused.forEach(
        (pool, settings) ->
            out.println(
                Printable.text(
                    "  refused            pools["
                        + pool
                        + "]: its "
                        + String.join(", ", settings)
                        + " changed since its nodes were accepted: terraform plan refuses to"
                        + " replace them until allowed (gpugen render --allow-replace, or gpugen up"
                        + " --allow-replace), or put the setting back")));
    out.flush();
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
