package dev.gpugen.lint.rules.gcp;

import dev.gpugen.compat.GkeVersion;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.stream.Collectors;

/** The upgrade hold of a GKE cluster gpugen creates needs an end date. */
public final class GcpGkeVersionUnknown extends Rule {
  public GcpGkeVersionUnknown() {
    super(
        "gcp-gke-version-unknown",
        Severity.ERROR,
        "GKE version without a known end of support and no cloud.gke.holdUpgradesUntil",
        "gpugen pins a cluster it creates to cloud.gke.version in a release channel and holds"
            + " minor and node upgrades with a maintenance exclusion of scope"
            + " NO_MINOR_OR_NODE_UPGRADES, which may last until the end of standard support of the"
            + " cluster's minor version and no longer. gpugen's table gives that date for the"
            + " minors it knows; for another minor, write the last day of the hold yourself"
            + " (cloud.gke.holdUpgradesUntil), at most the end of support GKE's release schedule"
            + " gives. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/concepts/maintenance-windows-and-exclusions ,"
            + " https://cloud.google.com/kubernetes-engine/docs/release-schedule");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .cloud()
        .gke()
        .filter(g -> g.create() && plan.gkeHoldUpgradesUntil().isEmpty())
        .ifPresent(
            g ->
                findings.report(
                    SpecPath.of("cloud", "gke", "version"),
                    "cloud.gke.version "
                        + g.version()
                        + ": gpugen does not know when GKE "
                        + g.minorVersion()
                        + "'s standard support ends, so it cannot end the upgrade hold",
                    "write cloud.gke.holdUpgradesUntil: YYYY-MM-DD (at most that end of support),"
                        + " or use a version gpugen knows: "
                        + plan.compat().gkeVersions().stream()
                            .map(GkeVersion::minor)
                            .collect(Collectors.joining(", "))));
  }
}
