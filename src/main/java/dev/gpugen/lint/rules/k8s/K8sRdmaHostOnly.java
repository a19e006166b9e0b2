package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.lint.rules.Nccl;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/** InfiniBand and RoCE reach the hosts gpugen configures, not the pods Kubernetes schedules. */
public final class K8sRdmaHostOnly extends Rule {
  public K8sRdmaHostOnly() {
    super(
        "k8s-rdma-host-only",
        Severity.INFO,
        "InfiniBand/RoCE reaches the hosts only: gpugen deploys no RDMA device plugin for pods",
        "On network.fabric infiniband or roce gpugen installs the verbs stack on each host and"
            + " play 05 proves NCCL over it there. A pod, though, sees /dev/infiniband only"
            + " through an RDMA device plugin (NVIDIA's Network Operator with its RDMA shared"
            + " device plugin, or k8s-rdma-shared-dev-plugin alone), which gpugen does not deploy;"
            + " without one, multi-node NCCL inside pods falls back to TCP sockets while the host"
            + " checks pass. Deploy the Network Operator and request its RDMA resource in the"
            + " training pods. Sources:"
            + " https://docs.nvidia.com/networking/display/kubernetes2640/k8s-launch-kit/profiles/ipoib-rdma-shared.html ,"
            + " https://github.com/Mellanox/k8s-rdma-shared-dev-plugin");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    ClusterSpec spec = plan.spec();
    if (spec.kubernetes().isPresent() && Nccl.verbsFabric(spec)) {
      findings.report(
          SpecPath.of("network", "fabric"),
          "network.fabric "
              + spec.network().fabric()
              + " reaches the hosts, not the pods: gpugen deploys no RDMA device plugin, so"
              + " multi-node NCCL inside pods falls back to TCP sockets",
          "deploy NVIDIA's Network Operator (RDMA shared device plugin) and request its RDMA"
              + " resource in the training pods");
    }
  }
}
