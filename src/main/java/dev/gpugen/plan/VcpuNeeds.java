package dev.gpugen.plan;

import dev.gpugen.compat.AwsInstanceType;
import dev.gpugen.compat.Ec2VcpuQuota;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The vCPUs an AWS spec's GPU pools need of each EC2 vCPU quota of its Region: every pool's count
 * times its instance type's vCPUs (the compatibility table), summed per quota its type and market
 * count against. New accounts start at 0 in these quotas, so this is what to check before an apply.
 *
 * @param needs one entry per quota, in the order the pools first use them
 * @param unchecked pools whose quota gpugen cannot name: an instance type the table does not know,
 *     or one no listed quota counts (P6 on spot)
 */
public record VcpuNeeds(List<Need> needs, List<String> unchecked) {
  /**
   * The vCPUs one quota must allow.
   *
   * @param quota the quota
   * @param vcpus the vCPUs of all the pools that count against it
   * @param pools those pools, by name
   */
  public record Need(Ec2VcpuQuota quota, long vcpus, List<String> pools) {
    public Need {
      Objects.requireNonNull(quota, "quota");
      pools = List.copyOf(pools);
    }
  }

  public VcpuNeeds {
    needs = List.copyOf(needs);
    unchecked = List.copyOf(unchecked);
  }

  /** The needs of {@code plan}; empty for a spec not on AWS. */
  public static VcpuNeeds of(ClusterPlan plan) {
    if (!plan.aws()) {
      return new VcpuNeeds(List.of(), List.of());
    }
    Map<String, Long> vcpus = new LinkedHashMap<>();
    Map<String, List<String>> pools = new LinkedHashMap<>();
    Map<String, Ec2VcpuQuota> quotas = new LinkedHashMap<>();
    List<String> unchecked = new ArrayList<>();
    for (PoolPlan p : plan.pools()) {
      Optional<AwsInstanceType> type = p.hardware().aws();
      Optional<Ec2VcpuQuota> quota =
          plan.compat().vcpuQuota(p.pool().instanceType(), p.pool().market().spelling());
      if (p.pool().count() == 0) {
        continue;
      }
      if (type.isEmpty() || quota.isEmpty()) {
        unchecked.add(p.name());
        continue;
      }
      String code = quota.get().code();
      quotas.putIfAbsent(code, quota.get());
      vcpus.merge(code, (long) p.pool().count() * type.get().vcpus(), Long::sum);
      pools.computeIfAbsent(code, k -> new ArrayList<>()).add(p.name());
    }
    List<Need> needs = new ArrayList<>();
    quotas.forEach((code, q) -> needs.add(new Need(q, vcpus.get(code), pools.get(code))));
    return new VcpuNeeds(needs, unchecked);
  }
}
