package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Cli;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Fault;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.InstanceSource;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.inventory.StandIns.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;

/** {@code gpugen inventory} end to end: picocli, settings, cache, the real SDK, the stand-in. */
class InventoryCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;
  private Ec2StandIn standIn;
  private Path cache;
  private Path configFile;
  private MutableClock clock;

  @BeforeEach
  void start() throws Exception {
    standIn = Ec2StandIn.start();
    standIn.addAll(StandIns.smallFleet());
    cache = tmp.resolve("cache");
    configFile = tmp.resolve("gpugen-inventory.json");
    Files.copy(StandIns.SMALL_FLEET_CONFIG, configFile);
    clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
  }

  @AfterEach
  void stop() {
    standIn.close();
  }

  /** Settings from the file; only the endpoint and the cache dir from the environment. */
  private Map<String, String> env(String... more) {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("GPUGEN_EC2_ENDPOINT", standIn.endpoint().toString());
    env.put("GPUGEN_CACHE_DIR", cache.toString());
    env.put("GPUGEN_MAX_ATTEMPTS", "2");
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "10");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private Run run(Map<String, String> env, String... args) {
    return StandIns.run(StandIns.context(env, clock), args);
  }

  private Run list(String... more) {
    return run(env(more), "--list", "--config", configFile.toString());
  }

  private static void assertFailure(Run run, int code, String... fragments) {
    assertEquals(code, run.code(), run.err());
    assertEquals("", run.out(), "nothing on stdout");
    List<String> lines = run.err().lines().toList();
    assertEquals(1, lines.size(), "one line on stderr: " + run.err());
    assertTrue(lines.get(0).startsWith("gpugen inventory: error: "), run.err());
    for (String fragment : fragments) {
      assertTrue(run.err().contains(fragment), "want \"" + fragment + "\" in " + run.err());
    }
    assertFalse(run.err().contains("\tat "), "no stack trace");
  }

  @Test
  void listMatchesTheGoldenFileThroughTheRealSdk() throws Exception {
    Run run = list();
    assertEquals(0, run.code(), run.err());
    StandIns.assertGolden(StandIns.SMALL_FLEET_LIST, run.out());
    // The two warnings: the hostile Name tag, and the Name tag of a group's name.
    assertEquals(
        List.of(
            "gpugen inventory: warning: dropped the tag Name of i-0a000000000000004: it contains a"
                + " Jinja2 delimiter ({{, {% or {#)",
            "gpugen inventory: warning: named i-0a000000000000007, not by its tag \"Name\""
                + " \"spot\": that is named like gpugen's group spot, which a play's hosts: would"
                + " select in its place"),
        run.err().lines().toList());
  }

  /**
   * validate, drift and inventory print JSON in one style: each document is byte for byte its
   * canonical form (keys sorted at every level, two spaces per level, {@code "key": value}, one
   * array element per line, non-ASCII escaped), and each has non-ASCII text to escape.
   */
  @Test
  void validateDriftAndInventoryPrintJsonInOneStyle() throws Exception {
    Path spec = tmp.resolve("cluster.yaml");
    Files.writeString(
        spec,
        Files.readString(Path.of("examples/aws-h100/cluster.yaml"))
            .replace("workload-type: training", "workload-type: \"tr\u00e4ining\""));
    Cli validate = Cli.run("validate", "--format", "json", spec.toString());
    assertEquals(1, validate.exit(), validate.toString());
    Path facts = Files.createDirectories(tmp.resolve("facts"));
    Files.writeString(
        facts.resolve("n\u00f6de-1.json"), "{\"ansible_facts\": {\"ansible_local\": {}}}");
    Cli drift =
        Cli.run(
            "drift",
            "examples/aws-h100/cluster.yaml",
            "--no-cloud",
            "--facts",
            facts.toString(),
            "--format",
            "json");
    assertEquals(1, drift.exit(), drift.toString());
    standIn.addAll(
        List.of(
            Ec2StandIn.Instance.of(
                "i-0a000000000000020",
                "p4d.24xlarge",
                "us-east-1a",
                Fleet.tags("demo", "prod", "a100-train", "n\u00f6de-2"))));
    Run inventory = list();
    assertEquals(0, inventory.code(), inventory.err());
    for (String out : List.of(validate.out(), drift.out(), inventory.out())) {
      assertTrue(out.contains("\\u00"), "non-ASCII escaped: " + out);
      assertEquals(canonical(out), out);
    }
  }

  private static String canonical(String json) throws Exception {
    ObjectMapper mapper =
        new ObjectMapper(
                com.fasterxml.jackson.core.JsonFactory.builder()
                    .enable(com.fasterxml.jackson.core.json.JsonWriteFeature.ESCAPE_NON_ASCII)
                    .build())
            .enable(com.fasterxml.jackson.databind.SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    Object data = mapper.readValue(json, Object.class);
    com.fasterxml.jackson.core.util.DefaultIndenter twoSpaces =
        new com.fasterxml.jackson.core.util.DefaultIndenter("  ", "\n");
    return mapper
            .writer(
                new com.fasterxml.jackson.core.util.DefaultPrettyPrinter()
                    .withObjectIndenter(twoSpaces)
                    .withArrayIndenter(twoSpaces)
                    .withSeparators(
                        com.fasterxml.jackson.core.util.Separators.createDefaultInstance()
                            .withObjectFieldValueSpacing(
                                com.fasterxml.jackson.core.util.Separators.Spacing.AFTER)))
            .writeValueAsString(data)
        + "\n";
  }

  @Test
  void hostPrintsThatHostsVarsAndEmptyObjectForUnknownHosts() throws Exception {
    Run known = run(env(), "--host", "demo-h100-infer-0", "--config", configFile.toString());
    assertEquals(0, known.code(), known.err());
    JsonNode vars = JSON.readTree(known.out());
    assertEquals("i-0a000000000000003", vars.get("gpugen_instance_id").asText());
    assertEquals("560.35.03", vars.get("gpugen_expected_driver").asText());
    assertEquals("spot", vars.get("gpugen_lifecycle").asText());

    Run unknown = run(env(), "--host", "no-such-host", "--config", configFile.toString());
    assertEquals(0, unknown.code(), unknown.err());
    assertEquals("{ }\n", unknown.out());
  }

  @Test
  void theHostileNameTagNeverReachesAnsibleAsJinja() {
    Run run = list();
    assertFalse(run.out().contains("lookup"), run.out());
    assertFalse(run.out().contains("{{"), run.out());
    assertFalse(run.out().contains("{%"), run.out());
  }

  @Test
  void aFreshCacheIsServedWithoutAskingEc2() {
    Run first = list();
    assertEquals(0, first.code());
    int requests = standIn.requests();
    clock.advance(Duration.ofSeconds(299));
    Run second = list();
    assertEquals(0, second.code());
    assertEquals(first.out(), second.out());
    assertEquals(first.err(), second.err(), "warnings are repeated from the cache");
    assertEquals(requests, standIn.requests(), "no EC2 call on a cache hit");
  }

  @Test
  void anExpiredCacheIsRefreshed() {
    list();
    int requests = standIn.requests();
    clock.advance(Duration.ofSeconds(301));
    list();
    assertEquals(requests + 1, standIn.requests());
  }

  @Test
  void refreshCacheAsksEc2AndRewritesTheCache() {
    list();
    standIn.add(
        Ec2StandIn.Instance.of(
            "i-0b000000000000001",
            "p4d.24xlarge",
            "us-east-1a",
            Fleet.tags("demo", "prod", "a100-train", "late-node")));
    assertFalse(list().out().contains("late-node"), "still cached");
    Run refreshed = run(env(), "--list", "--refresh-cache", "--config", configFile.toString());
    assertTrue(refreshed.out().contains("late-node"));
    assertTrue(list().out().contains("late-node"), "the refresh rewrote the cache");
  }

  @Test
  void aCacheIsNeverServedForOtherSettings() {
    list();
    int requests = standIn.requests();
    Run other = list("GPUGEN_ANSIBLE_HOST", "public-ip");
    assertEquals(0, other.code(), other.err());
    assertEquals(requests + 1, standIn.requests());
    Run otherEnvironment = list("GPUGEN_ENVIRONMENT", "staging");
    assertTrue(otherEnvironment.out().contains("staging-node"));
    assertFalse(otherEnvironment.out().contains("demo-a100-train-0"));
  }

  @Test
  void aCorruptCacheIsIgnoredAndRewritten() throws Exception {
    Run first = list();
    Path file;
    try (Stream<Path> files = Files.list(cache)) {
      file =
          files
              .filter(p -> p.getFileName().toString().startsWith("inventory-"))
              .filter(p -> p.getFileName().toString().endsWith(".json"))
              .findFirst()
              .orElseThrow();
    }
    Path meta = file.resolveSibling(file.getFileName().toString().replace(".json", ".meta"));
    assertTrue(Files.isRegularFile(meta), "the header beside the body");
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Files.writeString(file, text.replace("demo-a100-train-0", "demo-a100-train-X"));
    int requests = standIn.requests();
    Run second = list();
    assertEquals(0, second.code(), second.err());
    assertEquals(first.out(), second.out());
    assertEquals(requests + 1, standIn.requests(), "damaged body: a miss");

    Files.writeString(meta, "not json at all");
    assertEquals(first.out(), list().out());
    assertEquals(requests + 2, standIn.requests(), "damaged header: a miss");
    assertEquals(first.out(), list().out());
    assertEquals(requests + 2, standIn.requests(), "rewritten, so the next run hits");

    // A copy with the same bytes, times and modes (cp -p, a restored backup) is another file.
    Path copy = tmp.resolve("copy.json");
    Files.copy(file, copy, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
    Files.move(
        copy,
        file,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    assertEquals(first.out(), list().out());
    assertEquals(requests + 3, standIn.requests(), "same bytes, another file: a miss");
  }

  @Test
  void anUnwritableCacheDirectoryCostsSpeedNotCorrectness() throws Exception {
    Files.writeString(tmp.resolve("a-file"), "x");
    Run run = list("GPUGEN_CACHE_DIR", tmp.resolve("a-file").resolve("cache").toString());
    assertEquals(0, run.code(), run.err());
    assertEquals(2, run.err().lines().count(), "only the two tag warnings: " + run.err());
  }

  @Test
  void ttlZeroTurnsTheCacheOff() {
    list("GPUGEN_CACHE_TTL_SECONDS", "0");
    list("GPUGEN_CACHE_TTL_SECONDS", "0");
    assertEquals(2, standIn.requests());
    assertFalse(Files.exists(cache));
  }

  /**
   * An AWS profile file that cannot be read whole (here /dev/null) could change its profiles
   * without the cache key changing: the cache is off, so every run asks EC2 and none leaves a cache
   * file behind (a key per run would pile files up).
   */
  @Test
  void aProfileFileThatIsNotARegularFileTurnsTheCacheOff() throws Exception {
    for (int i = 1; i <= 3; i++) {
      Run run =
          run(
              env("AWS_CONFIG_FILE", "/dev/null"),
              "--list",
              "--verbose",
              "--config",
              configFile.toString());
      assertEquals(0, run.code(), run.err());
      assertTrue(
          run.err().contains("cache off: AWS config file /dev/null is not a regular file"),
          run.err());
      assertEquals(i, standIn.requests());
    }
    assertFalse(Files.exists(cache), "no cache written");
    // A regular config file keys the cache again: the next two runs ask EC2 once.
    Path config = Files.writeString(tmp.resolve("aws-config"), "[default]\nregion = us-east-1\n");
    list("AWS_CONFIG_FILE", config.toString());
    list("AWS_CONFIG_FILE", config.toString());
    assertEquals(4, standIn.requests());
  }

  @Test
  void authFailureExitsThreeWithOneLine() {
    standIn.acceptKeys("AKIDSOMEONEELSE");
    assertFailure(list(), ExitCodes.ENVIRONMENT, "credentials were not accepted", "AWS_PROFILE");
  }

  @Test
  void anEndpointThatIsDownExitsThreeWithOneLine() {
    String endpoint = standIn.endpoint().toString();
    standIn.close();
    assertFailure(
        list(),
        ExitCodes.ENVIRONMENT,
        "cannot connect to endpoint " + endpoint,
        "GPUGEN_EC2_ENDPOINT");
  }

  @Test
  void throttlingBeyondRetriesExitsThreeWithOneLine() {
    standIn.failAlways(Fault.THROTTLE);
    assertFailure(list(), ExitCodes.ENVIRONMENT, "RequestLimitExceeded", "after 2 attempts");
  }

  @Test
  void aFailureNeverServesOrDestroysTheCacheButRefreshFailsLoudly() {
    Run good = list();
    standIn.failAlways(Fault.INTERNAL_ERROR);
    assertEquals(good.out(), list().out(), "fresh cache still served");
    assertFailure(
        run(env(), "--list", "--refresh-cache", "--config", configFile.toString()),
        ExitCodes.ENVIRONMENT,
        "HTTP 500");
  }

  @Test
  void noRegionExitsThreeNamingTheSettings() throws Exception {
    Files.writeString(configFile, "{\"cluster\": \"demo\"}");
    assertFailure(list(), ExitCodes.ENVIRONMENT, "no AWS region", "GPUGEN_REGIONS", "AWS_REGION");
  }

  @Test
  void aRegionFromAwsRegionIsEnough() throws Exception {
    Files.writeString(configFile, "{\"cluster\": \"demo\", \"environment\": \"prod\"}");
    Run run = list("AWS_REGION", "us-east-1");
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().contains("demo-a100-train-0"));
  }

  @Test
  void noCredentialsExitsThreeWithOneLine() {
    InstanceSource.Factory noCredentials =
        config ->
            new dev.gpugen.inventory.Ec2InstanceSource(
                config,
                () -> {
                  throw SdkClientException.create(
                      "Unable to load credentials from any of the providers in the chain");
                });
    Run run =
        StandIns.run(
            new InventoryCommand.Context(env(), clock, noCredentials, Optional::empty),
            "--list",
            "--config",
            configFile.toString());
    assertFailure(run, ExitCodes.ENVIRONMENT, "no AWS credentials found", "AWS_PROFILE");
    assertEquals(0, standIn.requests());
  }

  @Test
  void verboseAddsTheStackTraceOnFailure() {
    standIn.acceptKeys("AKIDSOMEONEELSE");
    Run run = run(env(), "--list", "--verbose", "--config", configFile.toString());
    assertEquals(ExitCodes.ENVIRONMENT, run.code());
    assertEquals("", run.out());
    assertTrue(run.err().contains("\tat "), run.err());
  }

  @Test
  void invalidSettingsExitOneWithEveryProblem() throws Exception {
    Files.writeString(
        configFile,
        "{\"cluster\": \"demo\", \"hostname\": \"ip\", \"states\": [\"runing\"], \"regions\": [\"us-east-1\"]}");
    assertFailure(
        list(), ExitCodes.INVALID, "\"hostname\" must be one of", "\"states\" has \"runing\"");
    Files.writeString(configFile, "{\"cluster\": \"demo\", \"clutser\": 1}");
    assertFailure(list(), ExitCodes.INVALID, "unknown field \"clutser\"");
  }

  @Test
  void aMissingSettingsFileExitsThree() {
    Run run = run(env(), "--list", "--config", tmp.resolve("missing.json").toString());
    assertFailure(run, ExitCodes.ENVIRONMENT, "missing.json not found");
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(ExitCodes.USAGE, run(env(), "--bogus").code());
    assertEquals(ExitCodes.USAGE, run(env()).code(), "--list or --host is required");
    Run both = run(env(), "--list", "--host", "x");
    assertEquals(ExitCodes.USAGE, both.code());
    assertEquals("", both.out());
  }

  @Test
  void anEmptyResultIsValidJsonWithAWarningNotASilentSuccess() throws Exception {
    Run run = list("GPUGEN_CLUSTER", "no-such-cluster");
    assertEquals(0, run.code(), run.err());
    JsonNode root = JSON.readTree(run.out());
    assertTrue(root.path("_meta").path("hostvars").isObject());
    assertEquals(0, root.path("gpu_nodes").path("hosts").size());
    assertTrue(
        run.err().contains("warning: no running instances of cluster no-such-cluster"), run.err());
  }

  /** A clock the test moves. */
  static final class MutableClock extends Clock {
    private Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
