package dev.gpugen.lint.rules.gcp;

import dev.gpugen.compat.Version;
import dev.gpugen.lint.Findings;
import dev.gpugen.lint.rules.PoolContext;
import dev.gpugen.lint.rules.PoolRule;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Market;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;

/** How a GKE pool obtains its capacity: a reservation, flex-start, queued provisioning. */
public final class GcpCapacityInvalid extends PoolRule {
  /** GKE's first version with flex-start for GPUs (1.32.2-gke.1652000): its minor. */
  private static final Version FLEX_START_MINOR = Version.parse("1.32");

  public GcpCapacityInvalid() {
    super(
        "gcp-capacity-invalid",
        Severity.ERROR,
        "a GKE pool's reservation or flex-start settings GKE refuses",
        "A GKE pool can consume a specific Compute Engine reservation (pools[].reservation:"
            + " reservation_affinity SPECIFIC_RESERVATION), or have Dynamic Workload Scheduler"
            + " find its GPUs (market flex-start: flex-start VMs that run up to seven days; market"
            + " flex-start-queued: queued provisioning, all nodes of a ProvisioningRequest at"
            + " once). GKE's guides create flex-start pools with autoscaling from zero nodes"
            + " (the cluster autoscaler adds them when pods ask), no reservation and no"
            + " auto-repair, and flex-start for GPUs needs GKE 1.32.2-gke.1652000 or later. Spot"
            + " VMs cannot consume a reservation. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/concepts/dws ,"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/provisioningrequest ,"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/consuming-reservations");
  }

  @Override
  protected void check(PoolContext p, Findings findings) {
    if (p.spec().cloud().provider() != Provider.GCP) {
      return;
    }
    ClusterSpec.Pool pool = p.pool();
    if (pool.market().flexStart()) {
      if (pool.autoscaling().isEmpty()) {
        findings.report(
            p.path("market"),
            "market "
                + pool.market()
                + " needs autoscaling: Dynamic Workload Scheduler adds the nodes when pods ask for"
                + " them (pool "
                + pool.name()
                + ")",
            "add autoscaling: {min: 0, max: " + Math.max(1, pool.count()) + "}");
      } else if (pool.autoscaling().get().min() > 0) {
        findings.report(
            p.path("autoscaling", "min"),
            "a "
                + pool.market()
                + " pool starts from zero nodes; pool "
                + pool.name()
                + " asks for "
                + pool.autoscaling().get().min(),
            "set autoscaling.min: 0");
      }
      if (pool.reservation().isPresent()) {
        findings.report(
            p.path("reservation"),
            "market " + pool.market() + " consumes no reservation (pool " + pool.name() + ")",
            "remove reservation, or use market: on-demand to consume it");
      }
      p.spec()
          .cloud()
          .gke()
          .filter(g -> Version.parse(g.minorVersion()).compareTo(FLEX_START_MINOR) < 0)
          .ifPresent(
              g ->
                  findings.report(
                      p.path("market"),
                      "flex-start for GPUs needs GKE 1.32.2-gke.1652000 or later; cloud.gke.version"
                          + " is "
                          + g.version(),
                      "use cloud.gke.version \"1.35\""));
    }
    if (pool.reservation().isPresent() && pool.market() == Market.SPOT) {
      findings.report(
          p.path("reservation"),
          "Spot VMs do not consume reservations (pool " + pool.name() + ")",
          "use market: on-demand with the reservation, or remove it");
    }
  }
}
