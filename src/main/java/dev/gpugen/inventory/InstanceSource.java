package dev.gpugen.inventory;

import dev.gpugen.failure.Failure;
import java.util.List;

/** Lists the instances of the configured cluster; the only place the inventory talks to EC2. */
public interface InstanceSource {
  /**
   * Every instance of the cluster in {@code region} that matches the configured states, all pages
   * followed.
   *
   * @throws Failure when EC2 cannot be asked or refuses; never returns a partial list
   */
  List<HostFacts> describe(String region) throws Failure;

  /** Creates the source for one run. */
  @FunctionalInterface
  interface Factory {
    InstanceSource create(InventoryConfig config);
  }
}
