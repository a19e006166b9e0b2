package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gpugen.failure.EnvironmentFailure;
import dev.gpugen.failure.Failure;
import dev.gpugen.failure.InvalidInput;
import dev.gpugen.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads {@code gpugen-inventory.json} and applies the {@code GPUGEN_*} overrides and the defaults.
 *
 * <p>Ansible runs the inventory script with nothing but {@code --list}, so everything that is not
 * in the file must come from the environment.
 */
public final class InventoryConfigReader {
  /** Names the config file when {@code --config} is not given. */
  public static final String CONFIG_ENV = "GPUGEN_INVENTORY_CONFIG";

  /** The file name the render writes beside the {@code gpugen-inventory} script. */
  public static final String DEFAULT_FILE_NAME = "gpugen-inventory.json";

  static final long DEFAULT_CACHE_TTL_SECONDS = 300;
  static final long DEFAULT_API_CALL_TIMEOUT_SECONDS = 60;
  static final int DEFAULT_MAX_ATTEMPTS = 5;
  static final long DEFAULT_DEADLINE_SECONDS = 300;

  /** The settings file is a few kilobytes; anything far larger is not one (or is /dev/zero). */
  static final long MAX_CONFIG_BYTES = 1 << 20;

  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws[a-z-]*:iam::[0-9]{12}:role/[\\w+=,.@/-]{1,512}");
  private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");
  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");
  private static final Pattern FILTER_NAME = Pattern.compile("[a-z][a-z0-9.-]{0,63}");
  private static final Pattern GROUP_PREFIX = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
  private static final int MAX_FILTER_VALUES = 200;
  private static final int MAX_KEYED_GROUPS = 20;

  /** Filters gpugen sets itself, and the setting that controls each. */
  private static final Map<String, String> OWN_FILTERS =
      Map.of(
          "tag:" + GpugenTags.MANAGED_BY,
          "it is always gpugen",
          "tag:" + GpugenTags.CLUSTER,
          "use \"cluster\"",
          "tag:" + GpugenTags.ENVIRONMENT,
          "use \"environment\"",
          "instance-state-name",
          "use \"states\"");

  private static final Pattern REGION = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");
  private static final Pattern LIST_SEPARATOR = Pattern.compile("[,\\s]+");

  private static final List<String> FIELDS = InventoryFile.fields();
  private static final List<String> POOL_FIELDS = InventoryFile.Pool.fields();

  /** The {@code hostname} setting that names hosts by their Name tag (the default). */
  static final String NAME_TAG = "name-tag";

  private final Map<String, String> env;

  /**
   * @param env the process environment (injected so tests need not change the real one)
   */
  public InventoryConfigReader(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /**
   * Reads the settings: from {@code configFile} if given, else from {@code
   * GPUGEN_INVENTORY_CONFIG}, else from {@code ./gpugen-inventory.json} if present, else from the
   * environment alone.
   */
  public InventoryConfig read(Optional<Path> configFile) throws Failure {
    Optional<Path> file = configFile.or(() -> env(CONFIG_ENV).map(Path::of));
    if (file.isEmpty() && Files.exists(Path.of(DEFAULT_FILE_NAME))) {
      file = Optional.of(Path.of(DEFAULT_FILE_NAME));
    }
    if (file.isEmpty() && env("GPUGEN_CLUSTER").isEmpty()) {
      throw new EnvironmentFailure(
          "no "
              + DEFAULT_FILE_NAME
              + " here; run from the rendered ansible/ folder or pass --config (or set "
              + CONFIG_ENV
              + ")");
    }
    // Every problem of the file and of the values, one line: the structural ones (duplicate keys,
    // unknown fields, wrong types) do not hide the value checks.
    List<String> errors = new ArrayList<>();
    InventoryFile raw = file.isPresent() ? parse(file.get(), errors) : InventoryFile.empty();
    Path base = file.map(f -> f.toAbsolutePath().getParent()).orElse(Path.of("").toAbsolutePath());
    return resolve(raw, base, file.map(Path::toString).orElse("the environment"), errors);
  }

  private static InventoryFile parse(Path file, List<String> errors) throws Failure {
    byte[] bytes;
    try {
      bytes = BoundedFiles.read(file, MAX_CONFIG_BYTES, "inventory settings");
    } catch (NoSuchFileException e) {
      throw new EnvironmentFailure(
          "inventory settings " + file + " not found (--config or " + CONFIG_ENV + ")");
    } catch (BoundedFiles.NotAFileException e) {
      throw new EnvironmentFailure(e.getMessage());
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot read inventory settings " + file + ": " + e, e);
    }
    Object root;
    try {
      root = Json.parseCollecting(bytes, errors);
    } catch (JsonProcessingException e) {
      // Nothing after a syntax error can be read: it is the one problem reported.
      throw new InvalidInput(
          where(file, e) + "not valid JSON: " + firstLine(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new EnvironmentFailure("cannot read inventory settings " + file + ": " + e, e);
    }
    return fileConfig(root, errors);
  }

  /** Maps the parsed file onto {@link InventoryFile}, collecting every type error. */
  private static InventoryFile fileConfig(Object root, List<String> errors) {
    if (!(root instanceof Map<?, ?> map)) {
      errors.add("expected a JSON object of settings");
      return InventoryFile.empty();
    }
    for (Object key : map.keySet()) {
      if (!FIELDS.contains(key)) {
        errors.add("unknown field \"" + key + "\"");
      }
    }
    Map<String, InventoryFile.Pool> pools = null;
    Object rawPools = map.get("pools");
    if (rawPools != null) {
      pools = pools("\"pools\"", rawPools, errors);
    }
    Long attempts = integer("maxAttempts", map.get("maxAttempts"), errors);
    return new InventoryFile(
        string("cluster", map.get("cluster"), errors),
        string("environment", map.get("environment"), errors),
        strings("regions", map.get("regions"), errors),
        pools,
        string("hostname", map.get("hostname"), errors),
        string("ansibleHost", map.get("ansibleHost"), errors),
        strings("states", map.get("states"), errors),
        integer("cacheTtlSeconds", map.get("cacheTtlSeconds"), errors),
        string("cacheDir", map.get("cacheDir"), errors),
        string("endpoint", map.get("endpoint"), errors),
        integer("apiCallTimeoutSeconds", map.get("apiCallTimeoutSeconds"), errors),
        attempts == null || attempts > Integer.MAX_VALUE || attempts < Integer.MIN_VALUE
            ? null
            : attempts.intValue(),
        strings("hostnames", map.get("hostnames"), errors),
        map.get("keyedGroups"),
        map.get("filters"),
        string("assumeRoleArn", map.get("assumeRoleArn"), errors),
        string("assumeRoleExternalId", map.get("assumeRoleExternalId"), errors),
        string("assumeRoleSessionName", map.get("assumeRoleSessionName"), errors),
        integer("deadlineSeconds", map.get("deadlineSeconds"), errors),
        string("connection", map.get("connection"), errors),
        string("ssmBucketPrefix", map.get("ssmBucketPrefix"), errors),
        string("proxyJump", map.get("proxyJump"), errors),
        string("user", map.get("user"), errors));
  }

  private static Map<String, InventoryFile.Pool> pools(
      String what, Object raw, List<String> errors) {
    if (!(raw instanceof Map<?, ?> map)) {
      errors.add(
          what
              + " must be an object of pool name to {instanceType, driver, cuda,"
              + " containerToolkit}");
      return null;
    }
    Map<String, InventoryFile.Pool> pools = new TreeMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String name = String.valueOf(entry.getKey());
      String field = "pools." + name;
      if (entry.getValue() == null) {
        pools.put(name, new InventoryFile.Pool(null, null, null, null));
        continue;
      }
      if (!(entry.getValue() instanceof Map<?, ?> pool)) {
        errors.add("\"" + field + "\" must be an object");
        continue;
      }
      for (Object key : pool.keySet()) {
        if (!POOL_FIELDS.contains(key)) {
          errors.add("unknown field \"" + field + "." + key + "\"");
        }
      }
      pools.put(
          name,
          new InventoryFile.Pool(
              string(field + ".instanceType", pool.get("instanceType"), errors),
              string(field + ".driver", pool.get("driver"), errors),
              string(field + ".cuda", pool.get("cuda"), errors),
              string(field + ".containerToolkit", pool.get("containerToolkit"), errors)));
    }
    return pools;
  }

  private static String string(String field, Object value, List<String> errors) {
    if (value == null || value instanceof String) {
      return (String) value;
    }
    errors.add("\"" + field + "\" must be a string, got " + value);
    return null;
  }

  private static List<String> strings(String field, Object value, List<String> errors) {
    if (value == null) {
      return null;
    }
    if (value instanceof List<?> list && list.stream().allMatch(v -> v instanceof String)) {
      return list.stream().map(String.class::cast).toList();
    }
    errors.add("\"" + field + "\" must be a list of strings");
    return null;
  }

  private static Long integer(String field, Object value, List<String> errors) {
    if (value == null || value instanceof Long) {
      return (Long) value;
    }
    errors.add("\"" + field + "\" must be a whole number, got " + value);
    return null;
  }

  private static String where(Path file, JsonProcessingException e) {
    if (e.getLocation() == null || e.getLocation().getLineNr() < 1) {
      return file + ": ";
    }
    return file + ":" + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr() + ": ";
  }

  private static String firstLine(String message) {
    String text = message == null ? "malformed JSON" : message;
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private InventoryConfig resolve(InventoryFile raw, Path base, String source, List<String> errors)
      throws Failure {
    String cluster = env("GPUGEN_CLUSTER").orElse(raw.cluster());
    if (cluster == null || cluster.isBlank()) {
      errors.add("\"cluster\" is required (in " + source + " or GPUGEN_CLUSTER)");
      cluster = "";
    } else {
      checkPlain("cluster", cluster, errors);
    }

    Optional<String> environment =
        env("GPUGEN_ENVIRONMENT").or(() -> Optional.ofNullable(raw.environment()));
    environment.ifPresent(e -> checkPlain("environment", e, errors));
    environment = environment.filter(e -> !e.isBlank());

    List<String> regions = env("GPUGEN_REGIONS").map(InventoryConfigReader::split).orElse(null);
    if (regions == null) {
      regions = raw.regions() == null ? List.of() : raw.regions();
    }
    for (String region : regions) {
      if (region == null || !REGION.matcher(region).matches()) {
        errors.add("\"regions\" has an invalid region " + quote(region));
      }
    }

    Map<String, InventoryFile.Pool> rawPools = raw.pools();
    Optional<String> poolsEnv = env("GPUGEN_POOLS");
    if (poolsEnv.isPresent()) {
      try {
        rawPools =
            pools(
                "GPUGEN_POOLS",
                Json.parse(poolsEnv.get().getBytes(StandardCharsets.UTF_8)),
                errors);
      } catch (IOException e) {
        errors.add("GPUGEN_POOLS is not a JSON object of pools: " + firstLine(e.getMessage()));
        rawPools = null;
      }
    }
    TreeMap<String, PoolSoftware> pools = new TreeMap<>();
    if (rawPools != null) {
      for (Map.Entry<String, InventoryFile.Pool> pool : rawPools.entrySet()) {
        String name = pool.getKey();
        if (name.isBlank()) {
          errors.add("\"pools\" has an empty pool name");
          continue;
        }
        InventoryFile.Pool p =
            pool.getValue() == null
                ? new InventoryFile.Pool(null, null, null, null)
                : pool.getValue();
        pools.put(
            name,
            new PoolSoftware(
                optional("pools." + name + ".instanceType", p.instanceType(), errors),
                optional("pools." + name + ".driver", p.driver(), errors),
                optional("pools." + name + ".cuda", p.cuda(), errors),
                optional("pools." + name + ".containerToolkit", p.containerToolkit(), errors)));
      }
    }

    List<HostnameSource> hostnames = hostnames(raw, errors);
    AnsibleHostSource ansibleHost =
        choice(
            "ansibleHost",
            env("GPUGEN_ANSIBLE_HOST").orElse(raw.ansibleHost()),
            AnsibleHostSource.values(),
            AnsibleHostSource::setting,
            AnsibleHostSource.PRIVATE_IP,
            errors);

    List<String> states = env("GPUGEN_STATES").map(InventoryConfigReader::split).orElse(null);
    if (states == null) {
      states = raw.states() == null ? List.of("running") : raw.states();
    }
    if (states.isEmpty()) {
      errors.add("\"states\" must list at least one EC2 state");
    }
    for (String state : states) {
      if (!InventoryConfig.EC2_STATES.contains(state)) {
        errors.add(
            "\"states\" has "
                + quote(state)
                + "; expected some of "
                + String.join(", ", InventoryConfig.EC2_STATES));
      }
    }

    long ttl =
        number("GPUGEN_CACHE_TTL_SECONDS", raw.cacheTtlSeconds(), errors)
            .orElse(DEFAULT_CACHE_TTL_SECONDS);
    if (ttl < 0) {
      errors.add("\"cacheTtlSeconds\" must be 0 (no cache) or more, got " + ttl);
    }

    Path cacheDir;
    Optional<String> cacheDirEnv = env("GPUGEN_CACHE_DIR");
    if (cacheDirEnv.isPresent()) {
      cacheDir = Path.of(cacheDirEnv.get()).toAbsolutePath();
    } else if (raw.cacheDir() != null && !raw.cacheDir().isBlank()) {
      cacheDir = base.resolve(raw.cacheDir()).normalize();
    } else {
      cacheDir = defaultCacheDir();
    }

    Optional<URI> endpoint = Optional.empty();
    String endpointSetting = "";
    for (String[] candidate :
        new String[][] {
          {"GPUGEN_EC2_ENDPOINT", env("GPUGEN_EC2_ENDPOINT").orElse(null)},
          {"\"endpoint\" in " + source, raw.endpoint()},
          {"AWS_ENDPOINT_URL_EC2", awsEndpointEnv("AWS_ENDPOINT_URL_EC2")},
          {"AWS_ENDPOINT_URL", awsEndpointEnv("AWS_ENDPOINT_URL")}
        }) {
      if (candidate[1] != null && !candidate[1].isBlank()) {
        endpoint = endpoint(candidate[0], candidate[1], errors);
        endpointSetting = candidate[0];
        break;
      }
    }

    long timeout =
        number("GPUGEN_API_CALL_TIMEOUT_SECONDS", raw.apiCallTimeoutSeconds(), errors)
            .orElse(DEFAULT_API_CALL_TIMEOUT_SECONDS);
    if (timeout < 1 || timeout > 3600) {
      errors.add("\"apiCallTimeoutSeconds\" must be 1..3600, got " + timeout);
    }
    long attempts =
        number(
                "GPUGEN_MAX_ATTEMPTS",
                raw.maxAttempts() == null ? null : raw.maxAttempts().longValue(),
                errors)
            .orElse((long) DEFAULT_MAX_ATTEMPTS);
    if (attempts < 1 || attempts > 10) {
      errors.add("\"maxAttempts\" must be 1..10, got " + attempts);
    }
    long deadline =
        number("GPUGEN_DEADLINE_SECONDS", raw.deadlineSeconds(), errors)
            .orElse(DEFAULT_DEADLINE_SECONDS);
    if (deadline < 1 || deadline > 3600) {
      errors.add("\"deadlineSeconds\" must be 1..3600, got " + deadline);
    }

    List<KeyedGroup> keyedGroups =
        keyedGroups(jsonSetting("GPUGEN_KEYED_GROUPS", raw.keyedGroups(), errors), errors);
    TreeMap<String, List<String>> filters =
        filters(jsonSetting("GPUGEN_FILTERS", raw.filters(), errors), errors);
    Optional<AssumeRole> assumeRole = assumeRole(raw, errors);
    NodeConnection connection = connection(raw, errors);

    if (!errors.isEmpty()) {
      throw new InvalidInput(
          "invalid inventory settings (" + source + "): " + String.join("; ", errors));
    }
    return new InventoryConfig(
        cluster,
        environment,
        regions,
        pools,
        hostnames,
        ansibleHost,
        states,
        ttl,
        cacheDir,
        endpoint,
        Duration.ofSeconds(timeout),
        (int) attempts,
        endpointSetting,
        keyedGroups,
        filters,
        assumeRole,
        Duration.ofSeconds(deadline),
        connection);
  }

  /**
   * {@code connection} (ssm or ssh; ssh when absent), with {@code ssmBucketPrefix} for ssm and an
   * optional {@code proxyJump} and login {@code user} for ssh. The values reach every host's
   * connection variables, so each is checked against its format: no spaces, quotes or options can
   * ride along.
   */
  private NodeConnection connection(InventoryFile raw, List<String> errors) {
    String method = env("GPUGEN_CONNECTION").orElse(raw.connection());
    String prefix = env("GPUGEN_SSM_BUCKET_PREFIX").orElse(raw.ssmBucketPrefix());
    String jump = env("GPUGEN_PROXY_JUMP").orElse(raw.proxyJump());
    String user = env("GPUGEN_USER").orElse(raw.user());
    if (method == null) {
      method = "ssh";
    }
    if (!List.of("ssm", "ssh").contains(method)) {
      errors.add("\"connection\" must be ssm or ssh, got " + quote(method));
      return NodeConnection.SSH;
    }
    if (method.equals("ssm")) {
      if (prefix == null || !NodeConnection.BUCKET_PREFIX.matcher(prefix).matches()) {
        errors.add(
            "connection ssm needs \"ssmBucketPrefix\", the start of the transfer bucket's name"
                + " (up to 37 of a-z, 0-9, '.', '-'), got "
                + quote(prefix));
      }
      if (jump != null) {
        errors.add("\"proxyJump\" is for connection ssh; Session Manager needs no jump host");
      }
      if (user != null) {
        errors.add(
            "\"user\" is for connection ssh; Session Manager logs in as its own ssm-user and"
                + " become makes it root");
      }
    } else {
      if (prefix != null) {
        errors.add("\"ssmBucketPrefix\" is for connection ssm");
      }
      if (jump != null && !NodeConnection.PROXY_JUMP.matcher(jump).matches()) {
        errors.add(
            "\"proxyJump\" must be user@host or user@host:port (a login name, a DNS name or"
                + " IPv4 address), got "
                + quote(jump));
      }
      if (user != null && !NodeConnection.USER.matcher(user).matches()) {
        errors.add(
            "\"user\" must be a login name (a-z or _, then up to 31 of a-z, 0-9, _ and -), got "
                + quote(user));
      }
    }
    return new NodeConnection(
        method, Optional.ofNullable(prefix), Optional.ofNullable(jump), Optional.ofNullable(user));
  }

  /** {@code hostnames}, or the older {@code hostname} ({@code name-tag}/{@code instance-id}). */
  private List<HostnameSource> hostnames(InventoryFile raw, List<String> errors) {
    // A variable wins over the file; within one of them, the two forms are exclusive.
    List<String> list = env("GPUGEN_HOSTNAMES").map(InventoryConfigReader::split).orElse(null);
    String single = env("GPUGEN_HOSTNAME").orElse(null);
    if (list == null && single == null) {
      list = raw.hostnames();
      single = raw.hostname();
    }
    if (list != null && single != null) {
      errors.add("set \"hostnames\" or \"hostname\", not both");
      return HostnameSource.NAME_TAG_THEN_ID;
    }
    if (list == null) {
      if (single == null || single.equals(NAME_TAG)) {
        return HostnameSource.NAME_TAG_THEN_ID;
      }
      if (single.equals("instance-id")) {
        return List.of(HostnameSource.of("instance-id").orElseThrow());
      }
      errors.add("\"hostname\" must be one of name-tag|instance-id, got " + quote(single));
      return HostnameSource.NAME_TAG_THEN_ID;
    }
    if (list.isEmpty()) {
      errors.add("\"hostnames\" must list at least one entry");
    }
    List<HostnameSource> sources = new ArrayList<>();
    for (String entry : list) {
      Optional<HostnameSource> source = HostnameSource.of(entry);
      if (source.isEmpty() || entry.chars().anyMatch(Character::isISOControl)) {
        errors.add(
            "\"hostnames\" has "
                + quote(entry)
                + "; expected tag:KEY or one of "
                + String.join(", ", HostnameSource.FIXED));
      } else if (sources.contains(source.get())) {
        errors.add("\"hostnames\" lists " + quote(entry) + " twice");
      } else {
        sources.add(source.get());
      }
    }
    return sources;
  }

  /** A JSON-valued setting: the variable (parsed) wins over the file's value. */
  private Object jsonSetting(String envName, Object fromFile, List<String> errors) {
    Optional<String> text = env(envName);
    if (text.isEmpty()) {
      return fromFile;
    }
    try {
      return Json.parse(text.get().getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      errors.add(envName + " is not JSON: " + firstLine(e.getMessage()));
      return null;
    }
  }

  private static List<KeyedGroup> keyedGroups(Object raw, List<String> errors) {
    if (raw == null) {
      return List.of();
    }
    if (!(raw instanceof List<?> list)) {
      errors.add("\"keyedGroups\" must be a list of {\"tag\": KEY, \"prefix\": PREFIX}");
      return List.of();
    }
    if (list.size() > MAX_KEYED_GROUPS) {
      errors.add("\"keyedGroups\" has more than " + MAX_KEYED_GROUPS + " entries");
      return List.of();
    }
    List<KeyedGroup> groups = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String where = "keyedGroups[" + i + "]";
      if (!(list.get(i) instanceof Map<?, ?> map)) {
        errors.add("\"" + where + "\" must be an object {\"tag\": KEY, \"prefix\": PREFIX}");
        continue;
      }
      for (Object key : map.keySet()) {
        if (!List.of("tag", "prefix").contains(key)) {
          errors.add("unknown field \"" + where + "." + key + "\"");
        }
      }
      String tag = string(where + ".tag", map.get("tag"), errors);
      String prefix = string(where + ".prefix", map.get("prefix"), errors);
      if (tag == null || tag.isEmpty() || tag.length() > 128) {
        errors.add("\"" + where + ".tag\" must be a tag key of 1 to 128 characters");
        continue;
      }
      checkPlain(where + ".tag", tag, errors);
      if (prefix == null) {
        prefix = dev.gpugen.plan.GroupName.of("", tag);
      } else if (!GROUP_PREFIX.matcher(prefix).matches()) {
        errors.add(
            "\""
                + where
                + ".prefix\" must be a group name ([A-Za-z_][A-Za-z0-9_]*, up to 64), got "
                + quote(prefix));
        continue;
      }
      Optional<String> own = InventoryBuilder.ownGroupFor(prefix);
      if (own.isPresent()) {
        errors.add(
            "\""
                + where
                + ".prefix\" "
                + quote(prefix)
                + " would name gpugen's own groups ("
                + own.get()
                + "): a tag value could then move a host into a group its plays target; choose"
                + " another prefix");
        continue;
      }
      groups.add(new KeyedGroup(tag, prefix));
    }
    return groups;
  }

  private static TreeMap<String, List<String>> filters(Object raw, List<String> errors) {
    TreeMap<String, List<String>> filters = new TreeMap<>();
    if (raw == null) {
      return filters;
    }
    if (!(raw instanceof Map<?, ?> map)) {
      errors.add("\"filters\" must be an object of EC2 filter name to a value or list of values");
      return filters;
    }
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String name = String.valueOf(entry.getKey());
      String field = "filters." + name;
      if (OWN_FILTERS.containsKey(name)) {
        errors.add("\"" + field + "\" is a filter gpugen sets itself; " + OWN_FILTERS.get(name));
        continue;
      }
      boolean tag = name.startsWith("tag:") && name.length() > 4 && name.length() <= 132;
      if (!tag && !FILTER_NAME.matcher(name).matches()) {
        errors.add(
            "\""
                + field
                + "\" is not an EC2 filter name (such as instance-type, tag:team or"
                + " placement-group-name)");
        continue;
      }
      checkPlain(field, name, errors);
      List<String> values;
      if (entry.getValue() instanceof String one) {
        values = List.of(one);
      } else if (entry.getValue() instanceof List<?> list
          && list.stream().allMatch(v -> v instanceof String)) {
        values = list.stream().map(String.class::cast).toList();
      } else {
        errors.add("\"" + field + "\" must be a string or a list of strings");
        continue;
      }
      if (values.isEmpty() || values.size() > MAX_FILTER_VALUES) {
        errors.add("\"" + field + "\" must have 1 to " + MAX_FILTER_VALUES + " values");
        continue;
      }
      for (String value : values) {
        if (value.isEmpty() || value.length() > 255) {
          errors.add("\"" + field + "\" has a value that is empty or longer than 255");
        } else {
          checkPlain(field, value, errors);
        }
      }
      filters.put(name, values);
    }
    return filters;
  }

  private Optional<AssumeRole> assumeRole(InventoryFile raw, List<String> errors) {
    Optional<String> arn =
        env("GPUGEN_ASSUME_ROLE_ARN").or(() -> Optional.ofNullable(raw.assumeRoleArn()));
    Optional<String> externalId =
        env("GPUGEN_ASSUME_ROLE_EXTERNAL_ID")
            .or(() -> Optional.ofNullable(raw.assumeRoleExternalId()));
    Optional<String> session =
        env("GPUGEN_ASSUME_ROLE_SESSION_NAME")
            .or(() -> Optional.ofNullable(raw.assumeRoleSessionName()));
    if (arn.isEmpty() || arn.get().isBlank()) {
      if (externalId.isPresent() || session.isPresent()) {
        errors.add("\"assumeRoleExternalId\" and \"assumeRoleSessionName\" need \"assumeRoleArn\"");
      }
      return Optional.empty();
    }
    if (!ROLE_ARN.matcher(arn.get()).matches()) {
      errors.add(
          "\"assumeRoleArn\" must be an IAM role ARN such as"
              + " arn:aws:iam::123456789012:role/inventory, got "
              + quote(arn.get()));
    }
    if (externalId.isPresent() && !EXTERNAL_ID.matcher(externalId.get()).matches()) {
      // Never echo it: an external id is a shared secret of sorts.
      errors.add("\"assumeRoleExternalId\" must be 2 to 1224 of [A-Za-z0-9_+=,.@:/-]");
    }
    if (session.isPresent() && !SESSION_NAME.matcher(session.get()).matches()) {
      errors.add(
          "\"assumeRoleSessionName\" must be 2 to 64 of [A-Za-z0-9_+=,.@-], got "
              + quote(session.get()));
    }
    return Optional.of(
        new AssumeRole(arn.get(), externalId, session.orElse(AssumeRole.DEFAULT_SESSION_NAME)));
  }

  /** An {@code AWS_ENDPOINT_URL*} variable unless the SDK is told to ignore them. */
  private String awsEndpointEnv(String name) {
    if (env("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS").map("true"::equalsIgnoreCase).orElse(false)) {
      return null;
    }
    return env(name).orElse(null);
  }

  private Path defaultCacheDir() {
    Optional<String> xdg = env("XDG_CACHE_HOME");
    if (xdg.isPresent()) {
      return Path.of(xdg.get(), "gpugen").toAbsolutePath();
    }
    String home = env("HOME").orElse(System.getProperty("user.home"));
    return Path.of(home, ".cache", "gpugen").toAbsolutePath();
  }

  /**
   * The EC2 endpoint: http(s), a host and an optional port and path. Its text is never echoed
   * whole: user info, a query or a fragment may carry a secret, and java.net.URI reads an authority
   * it cannot parse as a server (a host with '_') as registry-based, with no user info to find; so
   * '@', '?' and '#' are refused by the text, before parsing, and the other errors show only what
   * was parsed as scheme and host.
   */
  private static Optional<URI> endpoint(String setting, String text, List<String> errors) {
    String t = text.trim();
    if (t.indexOf('@') >= 0) {
      errors.add(
          setting
              + " must not contain credentials (user info before '@'); give the SDK credentials"
              + " through its usual chain");
      return Optional.empty();
    }
    if (t.indexOf('?') >= 0 || t.indexOf('#') >= 0) {
      errors.add(
          setting
              + " must not have a query or a fragment ('?', '#'); an EC2 endpoint is a scheme, a"
              + " host, a port and a path");
      return Optional.empty();
    }
    URI uri;
    try {
      uri = new URI(t);
    } catch (URISyntaxException e) {
      errors.add(setting + " is not a URL (" + e.getReason() + ")");
      return Optional.empty();
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      errors.add(
          setting
              + " must be an http(s) URL with a host name such as"
              + " https://ec2.us-east-1.amazonaws.com, got "
              + (scheme.isEmpty() ? "no scheme" : "scheme " + quote(scheme))
              + (uri.getHost() == null ? " and no host gpugen can read" : ""));
      return Optional.empty();
    }
    return Optional.of(uri);
  }

  private Optional<Long> number(String envName, Long fromFile, List<String> errors) {
    Optional<String> fromEnv = env(envName);
    if (fromEnv.isPresent()) {
      try {
        return Optional.of(Long.parseLong(fromEnv.get().trim()));
      } catch (NumberFormatException e) {
        errors.add(envName + " must be a whole number, got " + quote(fromEnv.get()));
        return Optional.empty();
      }
    }
    return Optional.ofNullable(fromFile);
  }

  private static <T> T choice(
      String field,
      String value,
      T[] choices,
      Function<T, String> setting,
      T fallback,
      List<String> errors) {
    if (value == null) {
      return fallback;
    }
    for (T choice : choices) {
      if (setting.apply(choice).equals(value)) {
        return choice;
      }
    }
    errors.add(
        "\""
            + field
            + "\" must be one of "
            + String.join("|", Arrays.stream(choices).map(setting).toList())
            + ", got "
            + quote(value));
    return fallback;
  }

  private static Optional<String> optional(String field, String value, List<String> errors) {
    if (value == null) {
      return Optional.empty();
    }
    if (value.isBlank()) {
      errors.add("\"" + field + "\" is empty");
      return Optional.empty();
    }
    checkPlain(field, value, errors);
    return Optional.of(value);
  }

  private static void checkPlain(String field, String value, List<String> errors) {
    if (value.chars().anyMatch(Character::isISOControl)) {
      errors.add("\"" + field + "\" contains a control character");
    }
    if (InventoryBuilder.templatable(value)) {
      // These values become Ansible host variables, which Jinja2 would template.
      errors.add("\"" + field + "\" contains a Jinja2 delimiter ({{, {% or {#)");
    }
  }

  private static List<String> split(String text) {
    return Arrays.stream(LIST_SEPARATOR.split(text.trim())).filter(s -> !s.isEmpty()).toList();
  }

  private static String quote(String value) {
    return value == null ? "null" : "\"" + value + "\"";
  }

  private Optional<String> env(String name) {
    String value = env.get(name);
    return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value);
  }
}
