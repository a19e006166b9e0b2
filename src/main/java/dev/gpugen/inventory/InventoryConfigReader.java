package dev.gpugen.inventory;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.gpugen.cli.ExitCodes;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
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

  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
          .build();

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
    FileConfig raw = file.isPresent() ? parse(file.get()) : FileConfig.empty();
    Path base = file.map(f -> f.toAbsolutePath().getParent()).orElse(Path.of("").toAbsolutePath());
    return resolve(raw, base, file.map(Path::toString).orElse("the environment"));
  }

  private static FileConfig parse(Path file) throws InventoryException {
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
    try {
      FileConfig config = MAPPER.readValue(bytes, FileConfig.class);
      if (config == null) {
        throw new InventoryException(ExitCodes.INVALID, file + ": expected a JSON object");
      }
      return config;
    } catch (UnrecognizedPropertyException e) {
      throw new InventoryException(
          ExitCodes.INVALID, where(file, e) + "unknown field \"" + e.getPropertyName() + "\"", e);
    } catch (JsonProcessingException e) {
      throw new InventoryException(
          ExitCodes.INVALID, where(file, e) + firstLine(e.getOriginalMessage()), e);
    } catch (IOException e) {
      throw new InventoryException(
          ExitCodes.ENVIRONMENT, "cannot read inventory settings " + file + ": " + e, e);
    }
  }

  private static String where(Path file, JsonProcessingException e) {
    if (e.getLocation() == null) {
      return file + ": ";
    }
    return file + ":" + e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr() + ": ";
  }

  private static String firstLine(String message) {
    String text = message == null ? "malformed JSON" : message;
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  private InventoryConfig resolve(FileConfig raw, Path base, String source)
      throws InventoryException {
    List<String> errors = new ArrayList<>();

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
            MAPPER.readValue(
                poolsEnv.get(),
                MAPPER
                    .getTypeFactory()
                    .constructMapType(TreeMap.class, String.class, PoolFile.class));
      } catch (JsonProcessingException e) {
        errors.add(
            "GPUGEN_POOLS is not a JSON object of pools: " + firstLine(e.getOriginalMessage()));
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
        number("cacheTtlSeconds", "GPUGEN_CACHE_TTL_SECONDS", raw.cacheTtlSeconds(), errors)
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
        number(
                "apiCallTimeoutSeconds",
                "GPUGEN_API_CALL_TIMEOUT_SECONDS",
                raw.apiCallTimeoutSeconds(),
                errors)
            .orElse(DEFAULT_API_CALL_TIMEOUT_SECONDS);
    if (timeout < 1 || timeout > 3600) {
      errors.add("\"apiCallTimeoutSeconds\" must be 1..3600, got " + timeout);
    }
    long attempts =
        number(
                "maxAttempts",
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

  private Optional<Long> number(String field, String envName, Long fromFile, List<String> errors) {
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
