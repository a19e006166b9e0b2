package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.Internet;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * A GKE VPC without Cloud NAT reaches Google's APIs (Private Google Access) and nothing else, and
 * gpugen configures no registry mirror on GKE nodes: what it deploys there pulls from public
 * registries and would never start.
 */
public final class GcpInternetNone extends Rule {
  public GcpInternetNone() {
    super(
        "gcp-internet-none",
        Severity.ERROR,
        "network.internet: none on GKE: the nodes cannot pull what gpugen deploys",
        "gpugen creates GKE nodes without external IP addresses (private nodes). With"
            + " network.internet: none it renders no Cloud NAT, so they reach Google's APIs"
            + " through Private Google Access and nothing else. What gpugen deploys on them pulls"
            + " from public registries: the NCCL configuration DaemonSet (docker.io's busybox,"
            + " registry.k8s.io's pause) and, with cloud.gke.gpuDriver: operator, the GPU Operator"
            + " and NFD (nvcr.io, registry.k8s.io) whose driver container also downloads the"
            + " kernel headers from Ubuntu's archive. gpugen configures no node of GKE, so"
            + " mirrors.registries does not apply there (net-mirror-unused). Those pods would"
            + " stay in ImagePullBackOff without a word from Terraform. Use network.internet: nat"
            + " (the default: Cloud NAT), or an existing cluster whose VPC already has a way out"
            + " (cloud.gke.create: false). Sources:"
            + " https://cloud.google.com/vpc/docs/private-google-access ,"
            + " https://cloud.google.com/nat/docs/overview ,"
            + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/install-gpu-operator-air-gapped.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .cloud()
        .gke()
        .filter(g -> g.create() && plan.spec().network().internet() == Internet.NONE)
        .ifPresent(
            g ->
                findings.report(
                    SpecPath.of("network", "internet"),
                    "network.internet: none renders no Cloud NAT, so the private GKE nodes cannot"
                        + " pull "
                        + (g.operatorDriver()
                            ? "the GPU Operator's images (nvcr.io, registry.k8s.io) nor the"
                                + " driver's kernel headers (Ubuntu's archive), nor "
                            : "")
                        + "the NCCL DaemonSet's (docker.io, registry.k8s.io); gpugen configures"
                        + " no registry mirror on GKE nodes",
                    "use internet: nat (Cloud NAT, the default), or an existing cluster whose VPC"
                        + " has a way out (create: false)"));
  }
}
