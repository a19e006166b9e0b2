package dev.gpugen.render;

import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.PoolPlan;
import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.ClusterSpec.Pool;
import java.util.ArrayList;
import java.util.List;

/**
 * What the GKE checks (role gke_checks, plays 03-05 against the cluster's API) need: the kubeconfig
 * context, and per pool its node pool, what each node must advertise and how a pod lands there.
 * Empty unless on GKE.
 */
public final class GkeChecksView {
  private final ClusterPlan plan;
  private final ClusterSpec spec;

  GkeChecksView(ClusterPlan plan) {
    this.plan = plan;
    this.spec = plan.spec();
  }

  /**
   * The kubeconfig context {@code gcloud container clusters get-credentials} writes for the zonal
   * cluster of the Terraform: {@code gke_PROJECT_ZONE_CLUSTER}. Empty unless on GKE.
   */
  public String gkeContext() {
    if (!plan.gke()) {
      return "";
    }
    ClusterSpec.Cloud c = spec.cloud();
    return "gke_"
        + c.project().orElseThrow()
        + "_"
        + c.availabilityZone().orElseThrow()
        + "_"
        + c.gke().map(ClusterSpec.Gke::cluster).orElse(spec.metadata().name());
  }

  /** Whether the Terraform installs the GPU Operator on GKE (else GKE's driver and plugin). */
  public boolean gkeGpuOperator() {
    return plan.gke() && plan.gkeOperatorDriver();
  }

  /**
   * The DCGM image of play 05's validation Job where the GPU Operator runs the node's host engine:
   * the engine's own release ({@link ClusterPlan#dcgmImage}), so client and engine match; "" for
   * the role's default (GKE's driver, where the Job starts its own engine, or a release the table
   * does not know).
   */
  public String gkeDcgmImage() {
    return gkeGpuOperator() ? plan.dcgmImage().orElse("") : "";
  }

  /**
   * /etc/nccl.conf as gke-nccl.tf's ConfigMap holds it: one KEY=value line per setting, sorted by
   * key, as Terraform's {@code sort(keys(...))} orders them.
   */
  public String ncclConf() {
    return plan.ncclConf();
  }

  /** A toleration for one of a pool's taints (Kubernetes effect names, as the spec writes them). */
  public record Toleration(String key, String operator, String value, String effect) {}

  /**
   * What the GKE checks need about one pool: its node pool (the {@code
   * cloud.google.com/gke-nodepool} label value), the inventory host that stands for it, the
   * nvidia.com/gpu each node must advertise, the fewest nodes it may have, and the tolerations a
   * pod needs to land there.
   *
   * @param allocatableGpus the table's GPU count for the machine type, times the time-slicing
   *     replicas when time-slicing is on
   * @param jobGpus what the validation Job requests: every GPU of a node, or one replica where the
   *     pool time-slices (the device plugin refuses a request above one,
   *     failRequestsGreaterThanOne)
   * @param minNodes the autoscaling minimum, else the fixed node count
   * @param multiNode the nodes play 05's all-reduce across nodes runs on, 0 for none ({@link
   *     PoolPlan#multiNodeValidationNodes})
   * @param allReduceName the name of that Job and of its headless Service
   * @param minMultiNodeBusBandwidthGBps its threshold, "" for none (reported only)
   * @param skipReason why play 05 runs no Job on the pool, "" when it does ({@link
   *     PoolPlan#gkeValidationSkipReason})
   */
  public record GkePool(
      String nodePool,
      String host,
      String group,
      int gpus,
      int timeSlicingReplicas,
      int allocatableGpus,
      int jobGpus,
      int minNodes,
      String jobName,
      List<Toleration> tolerations,
      int multiNode,
      String allReduceName,
      String minMultiNodeBusBandwidthGBps,
      String skipReason) {}

  /** The GKE facts of every pool, in spec order; empty unless on GKE. */
  public List<GkePool> pools() {
    List<GkePool> out = new ArrayList<>();
    if (plan.gke()) {
      plan.pools().forEach(p -> out.add(pool(p)));
    }
    return out;
  }

  /** The GKE facts of pool {@code name} (for the per-pool group_vars template). */
  public GkePool pool(String name) {
    return pool(plan.pool(name));
  }

  private GkePool pool(PoolPlan pp) {
    Pool p = pp.pool();
    int gpus = pp.hardware().gpus();
    int replicas = pp.timeSlicingReplicas();
    List<Toleration> tolerations = new ArrayList<>();
    for (ClusterSpec.Taint t : p.taints()) {
      tolerations.add(
          t.value().isPresent()
              ? new Toleration(t.key(), "Equal", t.value().get(), t.effect())
              : new Toleration(t.key(), "Exists", "", t.effect()));
    }
    return new GkePool(
        p.name(),
        "gke_nodepool_" + pp.tfPrefix(),
        pp.group(),
        gpus,
        replicas,
        pp.allocatableGpus(),
        replicas > 1 ? 1 : gpus,
        pp.minNodes(),
        "gpugen-validate-" + p.name(),
        tolerations,
        pp.multiNodeValidationNodes(),
        "gpugen-allreduce-" + p.name(),
        pp.minMultiNodeBusBandwidthGbps().map(AnsibleVar::number).orElse(""),
        pp.gkeValidationSkipReason().orElse(""));
  }
}
