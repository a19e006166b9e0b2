package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gpugen.cli.ExitCodes;
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

  private static final Pattern REGION = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)+");
  private static final Pattern LIST_SEPARATOR = Pattern.compile("[,\\s]+");

  private static final List<String> FIELDS =
      List.of(
          "cluster",
          "environment",
          "regions",
          "pools",
          "hostname",
          "ansibleHost",
          "states",
          "cacheTtlSeconds",
          "cacheDir",
          "endpoint",
          "apiCallTimeoutSeconds",
          "maxAttempts");
  private static final List<String> POOL_FIELDS =
      List.of("instanceType", "driver", "cuda", "containerToolkit");

  /** The file as written; every field may be absent. */
  record FileConfig(
      String cluster,
      String environment,
      List<String> regions,
      Map<String, PoolFile> pools,
      String hostname,
      String ansibleHost,
      List<String> states,
      Long cacheTtlSeconds,
      String cacheDir,
      String endpoint,
      Long apiCallTimeoutSeconds,
      Integer maxAttempts) {
    static FileConfig empty() {
      return new FileConfig(null, null, null, null, null, null, null, null, null, null, null, null);
    }
  }

  /** One pool as written. */
  record PoolFile(String instanceType, String driver, String cuda, String containerToolkit) {}

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
  public InventoryConfig read(Optional<Path> configFile) throws InventoryException {
    Optional<Path> file = configFile.or(() -> env(CONFIG_ENV).map(Path::of));
    if (file.isEmpty() && Files.isRegularFile(Path.of(DEFAULT_FILE_NAME))) {
      file = Optional.of(Path.of(DEFAULT_FILE_NAME));
    }
    // Every problem of the file and of the values, one line: the structural ones (duplicate keys,
    // unknown fields, wrong types) do not hide the value checks.
    List<String> errors = new ArrayList<>();
    FileConfig raw = file.isPresent() ? parse(file.get(), errors) : FileConfig.empty();
    Path base = file.map(f -> f.toAbsolutePath().getParent()).orElse(Path.of("").toAbsolutePath());
    return resolve(raw, base, file.map(Path::toString).orElse("the environment"), errors);
  }

  private static FileConfig parse(Path file, List<String> errors) throws InventoryException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new InventoryException(
          ExitCodes.ENVIRONMENT,
          "inventory settings " + file + " not found (--config or " + CONFIG_ENV + ")");
    } catch (IOException e) {
      throw new InventoryException(
          ExitCodes.ENVIRONMENT, "cannot read inventory settings " + file + ": " + e, e);
    }
    Object root;
    try {
      root = Json.parseCollecting(bytes, errors);
    } catch (JsonProcessingException e) {
      // Nothing after a syntax error can be read: it is the one problem reported.
      throw new InventoryException(
          ExitCodes.INVALID,
          where(file, e) + "not valid JSON: " + firstLine(e.getOriginalMessage()),
          e);
    } catch (IOException e) {
      throw new InventoryException(
          ExitCodes.ENVIRONMENT, "cannot read inventory settings " + file + ": " + e, e);
    }
    return fileConfig(root, errors);
  }

  /** Maps the parsed file onto {@link FileConfig}, collecting every type error. */
  private static FileConfig fileConfig(Object root, List<String> errors) {
    if (!(root instanceof Map<?, ?> map)) {
      errors.add("expected a JSON object of settings");
      return FileConfig.empty();
    }
    for (Object key : map.keySet()) {
      if (!FIELDS.contains(key)) {
        errors.add("unknown field \"" + key + "\"");
      }
    }
    Map<String, PoolFile> pools = null;
    Object rawPools = map.get("pools");
    if (rawPools != null) {
      pools = pools("\"pools\"", rawPools, errors);
    }
    Long attempts = integer("maxAttempts", map.get("maxAttempts"), errors);
    return new FileConfig(
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
            : attempts.intValue());
  }

  private static Map<String, PoolFile> pools(String what, Object raw, List<String> errors) {
    if (!(raw instanceof Map<?, ?> map)) {
      errors.add(
          what
              + " must be an object of pool name to {instanceType, driver, cuda,"
              + " containerToolkit}");
      return null;
    }
    Map<String, PoolFile> pools = new TreeMap<>();
    for (Map.Entry<?, ?> entry : map.entrySet()) {
      String name = String.valueOf(entry.getKey());
      String field = "pools." + name;
      if (entry.getValue() == null) {
        pools.put(name, new PoolFile(null, null, null, null));
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
          new PoolFile(
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

  private InventoryConfig resolve(FileConfig raw, Path base, String source, List<String> errors)
      throws InventoryException {
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

    Map<String, PoolFile> rawPools = raw.pools();
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
      for (Map.Entry<String, PoolFile> pool : rawPools.entrySet()) {
        String name = pool.getKey();
        if (name.isBlank()) {
          errors.add("\"pools\" has an empty pool name");
          continue;
        }
        PoolFile p =
            pool.getValue() == null ? new PoolFile(null, null, null, null) : pool.getValue();
        pools.put(
            name,
            new PoolSoftware(
                optional("pools." + name + ".instanceType", p.instanceType(), errors),
                optional("pools." + name + ".driver", p.driver(), errors),
                optional("pools." + name + ".cuda", p.cuda(), errors),
                optional("pools." + name + ".containerToolkit", p.containerToolkit(), errors)));
      }
    }

    HostnamePreference hostname =
        choice(
            "hostname",
            env("GPUGEN_HOSTNAME").orElse(raw.hostname()),
            HostnamePreference.values(),
            HostnamePreference::setting,
            HostnamePreference.NAME_TAG,
            errors);
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
    Optional<String> endpointText =
        env("GPUGEN_EC2_ENDPOINT").or(() -> Optional.ofNullable(raw.endpoint()));
    if (endpointText.isPresent() && !endpointText.get().isBlank()) {
      endpoint = endpoint(endpointText.get(), errors);
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

    if (!errors.isEmpty()) {
      throw new InventoryException(
          ExitCodes.INVALID,
          "invalid inventory settings (" + source + "): " + String.join("; ", errors));
    }
    return new InventoryConfig(
        cluster,
        environment,
        regions,
        pools,
        hostname,
        ansibleHost,
        states,
        ttl,
        cacheDir,
        endpoint,
        Duration.ofSeconds(timeout),
        (int) attempts);
  }

  private Path defaultCacheDir() {
    Optional<String> xdg = env("XDG_CACHE_HOME");
    if (xdg.isPresent()) {
      return Path.of(xdg.get(), "gpugen").toAbsolutePath();
    }
    String home = env("HOME").orElse(System.getProperty("user.home"));
    return Path.of(home, ".cache", "gpugen").toAbsolutePath();
  }

  private static Optional<URI> endpoint(String text, List<String> errors) {
    try {
      URI uri = new URI(text.trim());
      if (uri.getRawUserInfo() != null) {
        // Never echo it: the user part may hold a secret.
        errors.add("\"endpoint\" must not contain credentials");
        return Optional.empty();
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
        errors.add(
            "\"endpoint\" must be an http(s) URL such as https://ec2.us-east-1.amazonaws.com, got "
                + quote(text));
        return Optional.empty();
      }
      return Optional.of(uri);
    } catch (URISyntaxException e) {
      errors.add("\"endpoint\" is not a URL: " + quote(text));
      return Optional.empty();
    }
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
