package dev.gpugen.compat;

import java.util.List;

/**
 * The EC2 instance types that Capacity Blocks for ML offer (EC2 user guide, "Capacity Blocks for
 * ML": supported instance types and Regions), and the end-of-block behaviour gpugen warns about.
 *
 * @param instanceTypes the types an AWS EC2 page names for Capacity Blocks
 * @param unverifiedInstanceTypes types that other AWS sources name (or that the guide's later
 *     editions add) but no EC2 page gpugen read lists: the linter does not refuse them
 * @param terminationLeadMinutes how long before the block's end EC2 begins to terminate its
 *     instances
 * @param sources the URLs the values come from
 */
public record CapacityBlockTypes(
    List<String> instanceTypes,
    List<String> unverifiedInstanceTypes,
    int terminationLeadMinutes,
    List<String> sources)
    implements CompatRow {
  public CapacityBlockTypes {
    instanceTypes = List.copyOf(instanceTypes);
    unverifiedInstanceTypes = List.copyOf(unverifiedInstanceTypes);
    sources = List.copyOf(sources);
  }

  /** Whether an AWS source names {@code instanceType} for Capacity Blocks. */
  public boolean offers(String instanceType) {
    return instanceTypes.contains(instanceType) || unverifiedInstanceTypes.contains(instanceType);
  }

  @Override
  public String key() {
    return "aws_capacity_blocks";
  }
}
