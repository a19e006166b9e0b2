package dev.gpugen.lint.rules.gcp;

import dev.gpugen.lint.Findings;
import dev.gpugen.lint.Rule;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.Scheduling;
import dev.gpugen.spec.Severity;
import dev.gpugen.spec.SpecPath;
import java.util.stream.Collectors;

/**
 * A GKE cluster gpugen creates has only the node pools it renders. With every GPU pool tainted and
 * the system pool off, no node is free of a taint: gpugen gives the GPU Operator and NFD's master
 * and gc the pools' tolerations, but GKE's own kube-dns does not tolerate custom taints, so the
 * cluster has no DNS (play 05's all-reduce rendezvous through it) and every other Deployment stays
 * Pending. The EKS counterpart is k8s-system-pool-off; GKE gets an error because its managed system
 * workloads cannot be given tolerations.
 */
public final class GcpSystemPoolOff extends Rule {
  public GcpSystemPoolOff() {
    super(
        "gcp-system-pool-off",
        Severity.ERROR,
        "GKE without the system pool while every GPU pool is tainted: kube-dns has no node",
        "A GKE cluster gpugen creates has only the node pools it renders. When every GPU pool has"
            + " a NoSchedule or NoExecute taint and kubernetes.systemPool is off, no node is free"
            + " of a taint. gpugen gives the GPU Operator and NFD's master and garbage collector"
            + " the pools' tolerations, but GKE's managed system workloads (kube-dns, the metrics"
            + " server, konnectivity) tolerate no custom taint: cluster DNS never starts, play"
            + " 05's multi-node all-reduce cannot find its rank 0, and every other Deployment"
            + " stays Pending. Google asks for at least one node pool without taints for them."
            + " Turn the system pool on (kubernetes.systemPool: {instanceType: e2-standard-4,"
            + " count: 2}), or leave one GPU pool untainted. Sources:"
            + " https://cloud.google.com/kubernetes-engine/docs/how-to/node-taints ,"
            + " https://kubernetes.io/docs/concepts/scheduling-eviction/taint-and-toleration/");
  }

  @Override
  public void check(ClusterPlan plan, Findings findings) {
    boolean applies =
        plan.spec().cloud().gke().filter(g -> g.create()).isPresent()
            && !plan.gkeSystemPool()
            && Scheduling.everyGpuPoolTainted(plan.spec());
    if (!applies) {
      return;
    }
    String pools =
        plan.spec().pools().stream().map(p -> p.name()).collect(Collectors.joining(", "));
    findings.report(
        SpecPath.of("kubernetes", "systemPool"),
        "the system pool is off and every GPU pool ("
            + pools
            + ") is tainted, so no node is free of a taint: GKE's kube-dns and other managed"
            + " system Deployments tolerate no custom taint and have no node (the GPU Operator"
            + " and NFD's master and gc get the pools' tolerations)",
        "turn the system pool on (systemPool: {instanceType: e2-standard-4, count: 2}), or leave"
            + " one GPU pool untainted");
  }
}
