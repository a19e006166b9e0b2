package dev.gpugen.inventory;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The inventory's settings: {@code gpugen-inventory.json} (rendered beside the {@code
 * gpugen-inventory} script) with every field overridable by a {@code GPUGEN_*} variable. Complete
 * once read: {@link InventoryConfigReader} applies the defaults.
 *
 * @param cluster the {@code gpugen:cluster} tag value; only this cluster's instances appear
 * @param environment the {@code gpugen:environment} tag value, when the cluster has several
 * @param regions the regions to query; empty means "the SDK's region" ({@code AWS_REGION} or the
 *     profile)
 * @param pools the spec's pools by name (the {@code gpugen:pool} tag value)
 * @param hostname how hosts are named
 * @param ansibleHost which address becomes {@code ansible_host}
 * @param states the EC2 instance states to include
 * @param cacheTtlSeconds how long a cached inventory is served; 0 turns the cache off
 * @param cacheDir where the cache file lives
 * @param endpoint an EC2 endpoint override (VPC endpoint, local stand-in)
 * @param apiCallTimeout the bound on one DescribeInstances page, retries included
 * @param maxAttempts attempts per page, the first included (SDK standard retry mode)
 */
public record InventoryConfig(
    String cluster,
    Optional<String> environment,
    List<String> regions,
    SortedMap<String, PoolSoftware> pools,
    HostnamePreference hostname,
    AnsibleHostSource ansibleHost,
    List<String> states,
    long cacheTtlSeconds,
    Path cacheDir,
    Optional<URI> endpoint,
    Duration apiCallTimeout,
    int maxAttempts) {

  /** The EC2 instance states DescribeInstances knows. */
  public static final List<String> EC2_STATES =
      List.of("pending", "running", "shutting-down", "terminated", "stopping", "stopped");

  public InventoryConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(environment, "environment");
    regions = List.copyOf(regions);
    pools = new TreeMap<>(Map.copyOf(pools));
    Objects.requireNonNull(hostname, "hostname");
    Objects.requireNonNull(ansibleHost, "ansibleHost");
    states = List.copyOf(states);
    Objects.requireNonNull(cacheDir, "cacheDir");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(apiCallTimeout, "apiCallTimeout");
  }

  @Override
  public SortedMap<String, PoolSoftware> pools() {
    return Collections.unmodifiableSortedMap(pools);
  }

  /** The same settings querying {@code resolvedRegions}. */
  public InventoryConfig withRegions(List<String> resolvedRegions) {
    return new InventoryConfig(
        cluster,
        environment,
        resolvedRegions,
        pools,
        hostname,
        ansibleHost,
        states,
        cacheTtlSeconds,
        cacheDir,
        endpoint,
        apiCallTimeout,
        maxAttempts);
  }

  /**
   * The bound on a single HTTP attempt: the call timeout shared by the attempts, at least a second.
   */
  public Duration attemptTimeout() {
    Duration share = apiCallTimeout.dividedBy(Math.max(1, maxAttempts));
    return share.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : share;
  }
}
