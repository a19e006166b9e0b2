package dev.gpugen.spec;

/**
 * A pool's purchase option ({@code pools[].market}). On AWS the spelling is also EC2's instance
 * lifecycle: {@code spot} for Spot Instances, {@code capacity-block} for instances in a Capacity
 * Block for ML, none for On-Demand ones (DescribeInstances, InstanceLifecycle:
 * https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_Instance.html). On GKE {@code
 * flex-start} and {@code flex-start-queued} are Dynamic Workload Scheduler's flex-start
 * provisioning, on its own or with queued provisioning (all nodes of a request at once)
 * (https://cloud.google.com/kubernetes-engine/docs/concepts/dws).
 */
public enum Market implements Keyword {
  ON_DEMAND("on-demand"),
  SPOT("spot"),
  CAPACITY_BLOCK("capacity-block"),
  FLEX_START("flex-start"),
  FLEX_START_QUEUED("flex-start-queued");

  private final String spelling;

  Market(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** Whether Dynamic Workload Scheduler provisions the pool's nodes (GKE's flex-start). */
  public boolean flexStart() {
    return this == FLEX_START || this == FLEX_START_QUEUED;
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
