package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * With GitOps, ArgoCD owns the cluster side, and gpugen's Applications carry no RDMA device plugin:
 * InfiniBand and RoCE then reach the hosts, not the pods.
 */
public final class K8sRdmaHostOnly extends Rule {
  public K8sRdmaHostOnly() {
    super(
        "k8s-rdma-host-only",
        Severity.INFO,
        "InfiniBand/RoCE reaches the hosts only: with GitOps no RDMA device plugin is deployed",
        "On InfiniBand or RoCE pools play 03 deploys NVIDIA's RDMA shared device plugin (the"
            + " Network Operator's k8s-rdma-shared-dev-plugin), so pods that request its resource"
            + " get /dev/infiniband, and play 05 runs NCCL inside a pod. With gitops.argocd play 03"
            + " installs nothing and gpugen's ArgoCD Applications do not carry the plugin: a pod"
            + " then sees no HCA and multi-node NCCL inside pods falls back to TCP sockets while"
            + " the host checks pass. Add the plugin (or the Network Operator) to your ArgoCD"
            + " repository and request its RDMA resource in the training pods. Sources:"
            + " https://github.com/Mellanox/k8s-rdma-shared-dev-plugin ,"
            + " https://github.com/Mellanox/network-operator");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.kubernetes().isPresent() && spec.gitops().isPresent() && Nccl.verbsFabric(spec)) {
      findings.report(
          SpecPath.of("gitops"),
          "InfiniBand/RoCE pools reach the hosts, not the pods: gpugen's ArgoCD Applications"
              + " carry no RDMA device plugin, so multi-node NCCL inside pods falls back to TCP"
              + " sockets",
          "deploy the RDMA shared device plugin (or NVIDIA's Network Operator) from your ArgoCD"
              + " repository and request its RDMA resource in the training pods");
    }
  }
}
