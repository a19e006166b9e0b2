package dev.gpugen.inventory;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The {@code gpugen-inventory.json} contract, shared by its writer (the render) and its reader
 * ({@link InventoryConfigReader}): the field names are this record's components, so the two cannot
 * disagree. Every field may be absent ({@code null}); the reader applies the defaults and the
 * {@code GPUGEN_*} overrides.
 */
public record InventoryFile(
    String cluster,
    String environment,
    List<String> regions,
    Map<String, Pool> pools,
    String hostname,
    String ansibleHost,
    List<String> states,
    Long cacheTtlSeconds,
    String cacheDir,
    String endpoint,
    Long apiCallTimeoutSeconds,
    Integer maxAttempts,
    List<String> hostnames,
    Object keyedGroups,
    Object filters,
    String assumeRoleArn,
    String assumeRoleExternalId,
    String assumeRoleSessionName,
    Long deadlineSeconds,
    String connection,
    String ssmBucketPrefix,
    String proxyJump,
    String user) {

  /** What one pool's nodes are expected to run; see {@link PoolSoftware}. */
  public record Pool(String instanceType, String driver, String cuda, String containerToolkit) {
    /** The field names of a pool, in declaration order. */
    static List<String> fields() {
      return names(Pool.class);
    }
  }

  /** The file's field names, in declaration order. */
  static List<String> fields() {
    return names(InventoryFile.class);
  }

  static InventoryFile empty() {
    return new InventoryFile(
        null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
        null, null, null, null, null, null, null, null);
  }

  /**
   * The file the render writes for a cluster on EC2: which instances to list (the cluster's tags in
   * one region) and what each pool is expected to run. Hosts are named by their Name tag and
   * reached at their private address; only running instances are listed, cached for the reader's
   * default time. {@code connection} (ssm or ssh) decides each host's connection variables, with
   * the SSM transfer bucket's name prefix, or the SSH jump host and login user.
   */
  public static InventoryFile rendered(
      String cluster,
      Optional<String> environment,
      String region,
      SortedMap<String, Pool> pools,
      String connection,
      Optional<String> ssmBucketPrefix,
      Optional<String> proxyJump,
      Optional<String> user) {
    return new InventoryFile(
        cluster,
        environment.orElse(null),
        List.of(region),
        pools,
        InventoryConfigReader.NAME_TAG,
        AnsibleHostSource.PRIVATE_IP.setting(),
        List.of("running"),
        InventoryConfigReader.DEFAULT_CACHE_TTL_SECONDS,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        connection,
        ssmBucketPrefix.orElse(null),
        proxyJump.orElse(null),
        user.orElse(null));
  }

  /** The file's JSON data: the fields that are set, pools as objects of their set fields. */
  public Map<String, Object> toJson() {
    Map<String, Object> out = present(this);
    if (pools != null) {
      Map<String, Object> p = new TreeMap<>();
      pools.forEach((name, pool) -> p.put(name, pool == null ? null : present(pool)));
      out.put("pools", p);
    }
    return out;
  }

  private static Map<String, Object> present(Record r) {
    Map<String, Object> out = new TreeMap<>();
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      try {
        Object v = c.getAccessor().invoke(r);
        if (v != null) {
          out.put(c.getName(), v);
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return out;
  }

  private static List<String> names(Class<? extends Record> type) {
    return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
  }
}
