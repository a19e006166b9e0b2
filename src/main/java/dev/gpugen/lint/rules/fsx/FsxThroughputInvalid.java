package dev.gpugen.lint.rules.fsx;

import dev.gpugen.compat.LustreDeployment;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;
import java.util.stream.Collectors;

/** FSx for Lustre accepts a few throughput tiers per deployment type. */
public final class FsxThroughputInvalid extends Rule {
  public FsxThroughputInvalid() {
    super(
        "fsx-throughput-invalid",
        Severity.ERROR,
        "storage.lustre.perUnitStorageThroughput is not a tier of the deployment type",
        "FSx for Lustre takes PerUnitStorageThroughput (MB/s per TiB) only for persistent"
            + " deployment types, and only these tiers on SSD: PERSISTENT_2 125, 250, 500 or 1000;"
            + " PERSISTENT_1 50, 100 or 200. Persistent types require it; scratch types reject it."
            + " CreateFileSystem fails otherwise, after the rest of the cluster was created."
            + " Sources: https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html ,"
            + " https://docs.aws.amazon.com/fsx/latest/APIReference/API_UpdateFileSystemLustreConfiguration.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.storage().lustre().isEmpty()) {
      return;
    }
    ClusterSpec.Lustre l = spec.storage().lustre().get();
    Optional<LustreDeployment> d = plan.compat().lustreDeployment(l.deploymentType());
    if (d.isEmpty()) {
      return;
    }
    SpecPath at = SpecPath.of("storage", "lustre", "perUnitStorageThroughput");
    String tiers =
        d.get().throughputs().stream().map(String::valueOf).collect(Collectors.joining(", "));
    if (!d.get().takesThroughput()) {
      l.perUnitStorageThroughput()
          .ifPresent(
              t ->
                  findings.report(
                      at,
                      l.deploymentType() + " takes no perUnitStorageThroughput (got " + t + ")",
                      "remove it, or use a PERSISTENT deployment type"));
    } else if (l.perUnitStorageThroughput().isEmpty()) {
      findings.report(
          SpecPath.of("storage", "lustre", "deploymentType"),
          l.deploymentType() + " requires perUnitStorageThroughput",
          "add perUnitStorageThroughput: one of " + tiers);
    } else if (!d.get().throughputs().contains(l.perUnitStorageThroughput().get())) {
      findings.report(
          at,
          l.deploymentType()
              + " does not offer "
              + l.perUnitStorageThroughput().get()
              + " MB/s/TiB",
          "use one of " + tiers);
    }
  }
}
