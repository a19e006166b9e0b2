package dev.gpugen.lint.rules.k8s;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Scheduling;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;

/**
 * On EKS the nodes gpugen creates are the cluster's only nodes. With every GPU pool tainted and the
 * system pool switched off, no node is free of a taint: gpugen's own controllers still run, on the
 * GPU nodes, because it gives them the pools' tolerations, but every other Deployment stays
 * Pending.
 */
public final class K8sSystemPoolOff extends Rule {
  public K8sSystemPoolOff() {
    super(
        "k8s-system-pool-off",
        Severity.WARNING,
        "EKS without the system pool while every GPU pool is tainted: no untainted node",
        "On EKS the cluster has only the nodes gpugen creates. When every GPU pool has a"
            + " NoSchedule or NoExecute taint, gpugen adds a small untainted pool of on-demand"
            + " nodes without GPUs (gpugen-system) for the cluster's controllers, as EKS GPU"
            + " clusters usually keep one. With kubernetes.systemPool.enabled: false, CoreDNS, the"
            + " GPU Operator and NFD's master and garbage collector run on the GPU nodes (gpugen"
            + " gives them the pools' tolerations), and any other Deployment without those"
            + " tolerations (metrics-server, the AWS Load Balancer Controller, your own"
            + " controllers) has no node and stays Pending. Remove enabled: false, or leave one"
            + " GPU pool untainted. Sources:"
            + " https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/ ,"
            + " https://docs.aws.amazon.com/eks/latest/userguide/managing-coredns.html");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    plan.spec()
        .kubernetes()
        .filter(ClusterSpec.Kubernetes::eks)
        // Off by default only where some GPU pool is untainted: off here is written.
        .filter(k -> !plan.spec().systemPool().enabled())
        .filter(k -> Scheduling.everyGpuPoolTainted(plan.spec()))
        .ifPresent(
            k ->
                findings.report(
                    SpecPath.of("kubernetes", "systemPool", "enabled"),
                    "the system pool is off and every GPU pool is tainted, so no node is free of a"
                        + " taint: CoreDNS, the GPU Operator and NFD's master and gc run on the GPU"
                        + " nodes, and any other Deployment without the pools' tolerations"
                        + " (metrics-server, the AWS Load Balancer Controller, your controllers)"
                        + " has no node",
                    "remove systemPool.enabled: false (gpugen then adds the gpugen-system pool), or"
                        + " leave one GPU pool untainted"));
  }
}
