package dev.gpugen.spec;

/**
 * The GPU interconnect between nodes ({@code network.fabric}, each pool's {@code fabric}): {@code
 * efa} is AWS's Elastic Fabric Adapter, reached by NCCL through the aws-ofi-nccl plugin
 * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/efa.html); {@code infiniband} and {@code
 * roce} are RDMA verbs fabrics NCCL drives with its IB transport, {@code tcp} is NCCL's socket
 * transport (NCCL_IB_DISABLE, NCCL_SOCKET_IFNAME:
 * https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html).
 */
public enum Fabric implements Keyword {
  EFA("efa"),
  INFINIBAND("infiniband"),
  ROCE("roce"),
  TCP("tcp");

  private final String spelling;

  Fabric(String spelling) {
    this.spelling = spelling;
  }

  @Override
  public String spelling() {
    return spelling;
  }

  /** The spelling, so a message or a string built from the value reads as the spec does. */
  @Override
  public String toString() {
    return spelling;
  }
}
