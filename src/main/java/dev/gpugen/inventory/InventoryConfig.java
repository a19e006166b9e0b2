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
 * @param hostnames how hosts are named: the first entry with a unique, valid value wins, else the
 *     instance id
 * @param ansibleHost which address becomes {@code ansible_host}
 * @param states the EC2 instance states to include
 * @param cacheTtlSeconds how long a cached inventory is served; 0 turns the cache off
 * @param cacheDir where the cache file lives
 * @param endpoint an EC2 endpoint override (VPC endpoint, local stand-in)
 * @param apiCallTimeout the bound on one DescribeInstances page, retries included
 * @param maxAttempts attempts per page, the first included (SDK standard retry mode)
 * @param endpointSetting where {@code endpoint} came from, for messages ({@code
 *     GPUGEN_EC2_ENDPOINT}, {@code AWS_ENDPOINT_URL_EC2}, ...)
 * @param keyedGroups extra groups named after chosen tags' values
 * @param filters extra server-side DescribeInstances filters, name to values
 * @param assumeRole a role to assume with the default chain's credentials
 * @param deadline the bound on the whole listing, every region and page
 * @param connection how Ansible reaches the hosts (their connection variables)
 */
public record InventoryConfig(
    String cluster,
    Optional<String> environment,
    List<String> regions,
    SortedMap<String, PoolSoftware> pools,
    List<HostnameSource> hostnames,
    AnsibleHostSource ansibleHost,
    List<String> states,
    long cacheTtlSeconds,
    Path cacheDir,
    Optional<URI> endpoint,
    Duration apiCallTimeout,
    int maxAttempts,
    String endpointSetting,
    List<KeyedGroup> keyedGroups,
    SortedMap<String, List<String>> filters,
    Optional<AssumeRole> assumeRole,
    Duration deadline,
    NodeConnection connection) {

  /** The EC2 instance states DescribeInstances knows. */
  public static final List<String> EC2_STATES =
      List.of("pending", "running", "shutting-down", "terminated", "stopping", "stopped");

  public InventoryConfig {
    Objects.requireNonNull(cluster, "cluster");
    Objects.requireNonNull(environment, "environment");
    regions = List.copyOf(regions);
    pools = new TreeMap<>(Map.copyOf(pools));
    hostnames = List.copyOf(hostnames);
    Objects.requireNonNull(ansibleHost, "ansibleHost");
    states = List.copyOf(states);
    Objects.requireNonNull(cacheDir, "cacheDir");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(apiCallTimeout, "apiCallTimeout");
    Objects.requireNonNull(endpointSetting, "endpointSetting");
    keyedGroups = List.copyOf(keyedGroups);
    TreeMap<String, List<String>> f = new TreeMap<>();
    filters.forEach((name, values) -> f.put(name, List.copyOf(values)));
    filters = Collections.unmodifiableSortedMap(f);
    Objects.requireNonNull(assumeRole, "assumeRole");
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(connection, "connection");
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
        hostnames,
        ansibleHost,
        states,
        cacheTtlSeconds,
        cacheDir,
        endpoint,
        apiCallTimeout,
        maxAttempts,
        endpointSetting,
        keyedGroups,
        filters,
        assumeRole,
        deadline,
        connection);
  }

  /**
   * The bound on a single HTTP attempt: the call timeout shared by the attempts, at least a second.
   */
  public Duration attemptTimeout() {
    Duration share = apiCallTimeout.dividedBy(Math.max(1, maxAttempts));
    return share.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : share;
  }
}
