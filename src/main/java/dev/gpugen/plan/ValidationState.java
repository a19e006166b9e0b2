package dev.gpugen.plan;

import dev.gpugen.spec.ClusterSpec;

/**
 * How play 05's verdict reaches the Kubernetes scheduler: the node labels, annotations and the
 * taint gpugen owns, under its own prefix so they never collide with the spec's or another tool's.
 * A failing node gets {@code gpugen.dev/validation=failed:NoSchedule} (as NVIDIA's NVSentinel
 * fault-quarantine taints a faulty node NoSchedule, and AWS ParallelCluster's GPU health check
 * drains a failing node from Slurm); a pool with {@code validation.gateScheduling} registers its
 * nodes with {@code gpugen.dev/validation=pending:NoSchedule}, which play 05 removes once they
 * pass. The role {@code validation_scheduling} writes the same names; {@code ValidationStateTest}
 * keeps its defaults equal to these.
 */
public final class ValidationState {
  /** The taint key (one key: pending and failed are its values, a pass removes it). */
  public static final String TAINT_KEY = "gpugen.dev/validation";

  public static final String PENDING = "pending";
  public static final String FAILED = "failed";

  /** The taint's effect: new pods stay off, running ones (DaemonSets, the job on it) stay. */
  public static final String EFFECT = "NoSchedule";

  /** Label: passed or failed, for {@code kubectl get nodes -l gpugen.dev/validation=failed}. */
  public static final String RESULT_LABEL = TAINT_KEY;

  /**
   * Label: when play 05 last judged the node, UTC as {@code 2006-01-02T15-04-05Z} (label values
   * allow no ':'; NVSentinel's cordon-timestamp label uses the same form).
   */
  public static final String TIME_LABEL = "gpugen.dev/validated-at";

  /** Label {@code true} while the node is an outlier of its pool. */
  public static final String OUTLIER_LABEL = "gpugen.dev/validation-outlier";

  /** Annotation: the checks that failed (or are not yet proven again), comma-separated. */
  public static final String FAILED_CHECKS_ANNOTATION = "gpugen.dev/validation-failed-checks";

  private ValidationState() {}

  /**
   * Whether gpugen puts the verdict on the pool's nodes: a Kubernetes cluster whose nodes play 05
   * validates one by one. GKE's checks run one Job per node pool, with no verdict per node.
   */
  public static boolean applies(ClusterPlan plan) {
    return plan.spec().kubernetes().isPresent() && !plan.gke();
  }

  /** Whether the pool's nodes register with the pending taint and keep it until they pass. */
  public static boolean gates(ClusterPlan plan, PoolPlan pool) {
    return applies(plan) && pool.pool().validation().gateScheduling();
  }

  /** The pending taint, as the spec's taints are written (key, value, effect). */
  public static ClusterSpec.Taint pendingTaint() {
    return new ClusterSpec.Taint(TAINT_KEY, java.util.Optional.of(PENDING), EFFECT);
  }

  /**
   * The toleration of the verdict taint, pending or failed: a node's own agents (device plugins,
   * exporter, validator, NFD's worker) and the cluster's controllers where the GPU nodes are their
   * only home must keep running there; the taint is about new GPU workloads, not them.
   */
  public static Toleration toleration() {
    return new Toleration(TAINT_KEY, "Exists", "", EFFECT);
  }
}
