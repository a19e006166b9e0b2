package dev.gpugen.plan;

import java.util.Map;
import java.util.Objects;

/**
 * The system pool on EKS: a few on-demand nodes without GPUs and without taints, joined the way the
 * GPU pools are, where the cluster's controllers (CoreDNS, the GPU Operator, NFD's master and
 * garbage collector, and whatever the user adds later) run when every GPU pool is tainted. Real EKS
 * GPU clusters keep such a group (terraform-aws-modules/eks and eksctl examples do).
 *
 * @param name the pool's key in Terraform's pools and its gpugen:pool tag
 * @param instanceType the EC2 type, x86_64 as the nodes' image
 * @param count how many nodes
 * @param rootGib the root volume's size in GiB
 * @param labels what kubelet registers the nodes with (besides gpugen-pool)
 */
public record SystemPool(
    String name, String instanceType, int count, int rootGib, Map<String, String> labels) {
  /** The name no GPU pool may take (spec-duplicate-pool). */
  public static final String NAME = "gpugen-system";

  /** The label its nodes carry, for anything the user wants to pin there. */
  public static final String ROLE_LABEL = "gpugen.dev/role";

  public SystemPool {
    Objects.requireNonNull(name);
    Objects.requireNonNull(instanceType);
    labels = Map.copyOf(labels);
  }
}
