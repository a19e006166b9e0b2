package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** With GKE's own driver install, the driver follows the node version, not software.driver. */
public final class GcpDriverFromGke extends Rule {
  public GcpDriverFromGke() {
    super(
        "gcp-driver-from-gke",
        Severity.INFO,
        "with gpuDriver gke, GKE picks the driver, not software.driver",
        "With cloud.gke.gpuDriver: gke, each node pool asks GKE for its DEFAULT or LATEST driver"
            + " (cloud.gke.gpuDriverVersion, rendered as gpu_driver_installation_config), and GKE"
            + " installs the driver its table gives for the node's GKE version and GPU;"
            + " software.driver is not installed anywhere. gpugen"
            + " pins that version (cloud.gke.version, release channel, a maintenance exclusion"
            + " that holds node upgrades), so the driver changes only when the node version does."
            + " Play 05 prints the driver each pool runs. For a driver of your choosing, use"
            + " gpuDriver: operator. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/gpus#installing_drivers ,"
            + " https://cloud.google.com/kubernetes-engine/docs/concepts/maintenance-windows-and-exclusions");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .cloud()
        .gke()
        .filter(g -> !g.operatorDriver())
        .ifPresent(
            g ->
                findings.report(
                    SpecPath.of("software", "driver"),
                    "with gpuDriver gke, GKE "
                        + g.version()
                        + " installs its "
                        + plan.gkeDriverInstallation().orElseThrow()
                        + " driver on every GPU node; software.driver "
                        + plan.spec().software().driver()
                        + " is not installed, nor software.cuda checked against GKE's driver"
                        + " (play 05 prints the driver each pool runs)",
                    "use gpuDriver: operator to install software.driver instead"));
  }
}
