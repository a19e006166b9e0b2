package dev.gpugen.inventory;

import java.util.Objects;
import java.util.Optional;

/**
 * What the spec expects on the nodes of one pool; copied into host variables so playbooks and drift
 * checks can compare against it.
 *
 * @param instanceType the EC2 instance type the pool was launched with
 * @param driver the NVIDIA driver version, e.g. {@code 550.90.07}
 * @param cuda the CUDA toolkit version, e.g. {@code 12.4}
 * @param containerToolkit the NVIDIA Container Toolkit version, e.g. {@code 1.16.2}
 */
public record PoolSoftware(
    Optional<String> instanceType,
    Optional<String> driver,
    Optional<String> cuda,
    Optional<String> containerToolkit) {
  public PoolSoftware {
    Objects.requireNonNull(instanceType, "instanceType");
    Objects.requireNonNull(driver, "driver");
    Objects.requireNonNull(cuda, "cuda");
    Objects.requireNonNull(containerToolkit, "containerToolkit");
  }

  /** A pool with no expectations. */
  public static PoolSoftware none() {
    return new PoolSoftware(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  }
}
