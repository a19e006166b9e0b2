package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Provider;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** Without a kubernetes: section the nodes are configured but join no cluster gpugen knows of. */
public final class K8sNotConfigured extends Rule {
  public K8sNotConfigured() {
    super(
        "k8s-not-configured",
        Severity.INFO,
        "no kubernetes: section: plays 03-05 skip their Kubernetes parts",
        "gpugen configures the GPU nodes (kernel, driver, CUDA, container runtime, NCCL) with or"
            + " without Kubernetes. Making them schedulable workers needs a cluster: kubernetes:"
            + " {distribution: eks} creates an Amazon EKS control plane and the nodes join it at"
            + " boot; kubeadm bootstraps one on static hosts; existing uses the cluster your"
            + " kubeconfig names and proves every host is a Ready node of it. Without the section"
            + " play 03 installs no GPU Operator and labels no nodes, and play 05 does not check"
            + " what the scheduler sees; each says so when it runs."
            + " Sources: https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/ ,"
            + " https://docs.nvidia.com/datacenter/cloud-native/gpu-operator/latest/getting-started.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    // GKE's cluster is cloud.gke's: it never needs the section.
    if (spec.kubernetes().isEmpty() && spec.cloud().provider() != Provider.GCP) {
      findings.report(
          SpecPath.ROOT,
          "the spec has no kubernetes: section: the nodes are configured but join no cluster, and"
              + " plays 03-05 skip the GPU Operator, node labels and scheduler checks",
          spec.cloud().provider() == Provider.AWS
              ? "add kubernetes: {distribution: eks, version: \"1.33\"}, or {distribution: existing,"
                  + " version: ...} for a cluster you run"
              : "add kubernetes: {distribution: kubeadm, version: \"1.33\", controlPlane: {hosts:"
                  + " [...]}}, or {distribution: existing, version: ...} for a cluster you run");
    }
  }
}
