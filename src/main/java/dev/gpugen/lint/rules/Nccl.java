package dev.gpugen.lint.rules;

import dev.gpugen.spec.ClusterSpec;
import dev.gpugen.spec.Fabric;
import dev.gpugen.spec.SpecPath;
import java.util.Optional;

/** Reading the spec's NCCL environment. */
public final class Nccl {
  private Nccl() {}

  public static Optional<String> get(ClusterSpec spec, String name) {
    return Optional.ofNullable(spec.nccl().env().get(name));
  }

  public static SpecPath path(String name) {
    return SpecPath.of("nccl", "env", name);
  }

  /** NCCL's integer parameters: a decimal number, as NCCL parses it. */
  public static Optional<Long> integer(String value) {
    if (!value.matches("-?[0-9]{1,18}")) {
      return Optional.empty();
    }
    return Optional.of(Long.parseLong(value));
  }

  /** Whether some pool's fabric is an RDMA fabric NCCL reaches through its IB transport. */
  public static boolean verbsFabric(ClusterSpec spec) {
    return verbsPoolFabric(spec).isPresent();
  }

  /** The fabric of the first InfiniBand or RoCE pool, if any. */
  public static Optional<Fabric> verbsPoolFabric(ClusterSpec spec) {
    return spec.pools().stream()
        .map(ClusterSpec.Pool::fabric)
        .filter(f -> f == Fabric.INFINIBAND || f == Fabric.ROCE)
        .findFirst();
  }

  /** Whether some pool's fabric is {@code fabric}: the cluster's NCCL settings reach its hosts. */
  public static boolean anyPool(ClusterSpec spec, Fabric fabric) {
    return spec.pools().stream().anyMatch(p -> p.fabric() == fabric);
  }
}
