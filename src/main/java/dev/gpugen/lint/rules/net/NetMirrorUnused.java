package dev.gpugen.lint.rules.net;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Source;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** A mirror for a source the render never downloads from would silently do nothing. */
public final class NetMirrorUnused extends Rule {
  public NetMirrorUnused() {
    super(
        "net-mirror-unused",
        Severity.WARNING,
        "a mirror is set for a source this render never downloads from",
        "Each mirrors: key replaces one public source of the rendered node plays. A mirror of a"
            + " source they do not use changes nothing: mirrors.kubernetes without"
            + " kubernetes.distribution kubeadm (static hosts or aws), mirrors.lustre without"
            + " storage.lustre on AWS, mirrors.files without EFA pools or storage.lustre, and"
            + " mirrors.helm.* without what installs that chart, and every mirror (registries"
            + " included) on GKE, whose nodes gpugen does not configure. Registry mirrors apply to"
            + " every image the nodes pull, workloads' too, so they count as used wherever gpugen"
            + " configures containerd. Remove it, or turn on"
            + " what uses it. Mirrors are fine with internet: nat (a team's proxy for speed or"
            + " pinning). Source of the layouts:"
            + " https://developer.download.nvidia.com/compute/cuda/repos/ and"
            + " https://kubernetes.io/docs/setup/production-environment/tools/kubeadm/install-kubeadm/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    for (Source s : Source.values()) {
      if (plan.sources().mirror(s).isPresent() && !plan.sources().used().contains(s)) {
        findings.report(
            s.path(),
            "mirrors." + s.key() + " is set, but this render never downloads from " + s.upstream(),
            "remove mirrors." + s.key() + ", or turn on what uses it (" + usedBy(s) + ")");
      }
    }
    registries(plan, findings);
  }

  private static void registries(ClusterPlan plan, Findings findings) {
    if (plan.sources().containerd()) {
      return;
    }
    for (String r : plan.sources().registryMirrors().keySet()) {
      findings.report(
          SpecPath.of("mirrors", "registries", r),
          "mirrors.registries."
              + r
              + " is set, but gpugen does not configure these nodes' containerd",
          "remove mirrors.registries; GKE's nodes take registry mirrors through GKE's own settings");
    }
  }

  private static String usedBy(Source s) {
    return switch (s) {
      case KUBERNETES -> "kubernetes.distribution kubeadm";
      case LUSTRE -> "storage.lustre on AWS";
      case FILES -> "an EFA pool, or storage.lustre on AWS";
      case HELM_GPU_OPERATOR -> "a kubernetes: section";
      case HELM_EKS_CHARTS -> "an EFA pool with a kubernetes: section and no gitops";
      case HELM_CILIUM -> "kubeadm with kubernetes.cni cilium";
      case HELM_TIGERA -> "kubeadm with kubernetes.cni calico";
      default -> "the node plays of an AWS or static cluster";
    };
  }
}
