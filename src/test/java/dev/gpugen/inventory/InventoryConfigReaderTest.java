package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.Failure;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InventoryConfigReaderTest {
  @TempDir Path tmp;

  private InventoryConfig read(String json, Map<String, String> env) throws Exception {
    Path file = tmp.resolve("gpugen-inventory.json");
    Files.writeString(file, json);
    return new InventoryConfigReader(env).read(Optional.of(file));
  }

  private Failure invalid(String json, Map<String, String> env) {
    return assertThrows(Failure.class, () -> read(json, env));
  }

  @Test
  void theRenderedShapeReadsCompletely() throws Exception {
    InventoryConfig c =
        new InventoryConfigReader(Map.of("HOME", "/home/ops"))
            .read(Optional.of(StandIns.SMALL_FLEET_CONFIG));
    assertEquals("demo", c.cluster());
    assertEquals(Optional.of("prod"), c.environment());
    assertEquals(List.of("us-east-1"), c.regions());
    assertEquals(List.of("a100-train", "h100-infer", "l4-batch"), List.copyOf(c.pools().keySet()));
    assertEquals(Optional.of("560.35.03"), c.pools().get("h100-infer").driver());
    assertEquals(Optional.of("1.16.2"), c.pools().get("a100-train").containerToolkit());
    assertEquals(HostnameSource.NAME_TAG_THEN_ID, c.hostnames());
    assertEquals(AnsibleHostSource.PRIVATE_IP, c.ansibleHost());
    assertEquals(List.of("running"), c.states());
    assertEquals(300, c.cacheTtlSeconds());
    assertEquals(Path.of("/home/ops/.cache/gpugen"), c.cacheDir());
    assertEquals(Optional.empty(), c.endpoint());
    assertEquals(Duration.ofSeconds(60), c.apiCallTimeout());
    assertEquals(5, c.maxAttempts());
    assertEquals(Duration.ofSeconds(12), c.attemptTimeout());
  }

  @Test
  void defaultsNeedOnlyACluster() throws Exception {
    InventoryConfig c = read("{\"cluster\": \"demo\"}", Map.of("XDG_CACHE_HOME", "/xdg"));
    assertEquals(Optional.empty(), c.environment());
    assertEquals(List.of(), c.regions());
    assertEquals(List.of("running"), c.states());
    assertEquals(Path.of("/xdg/gpugen"), c.cacheDir());
    assertEquals(InventoryConfigReader.DEFAULT_CACHE_TTL_SECONDS, c.cacheTtlSeconds());
  }

  @Test
  void everyFieldIsOverriddenByItsVariable() throws Exception {
    Map<String, String> env = new java.util.HashMap<>();
    env.put("GPUGEN_CLUSTER", "other");
    env.put("GPUGEN_ENVIRONMENT", "staging");
    env.put("GPUGEN_REGIONS", "us-west-2, eu-central-1");
    env.put("GPUGEN_POOLS", "{\"l4\": {\"driver\": \"550.1\"}}");
    env.put("GPUGEN_HOSTNAME", "instance-id");
    env.put("GPUGEN_ANSIBLE_HOST", "private-dns");
    env.put("GPUGEN_STATES", "running,stopped");
    env.put("GPUGEN_CACHE_TTL_SECONDS", "0");
    env.put("GPUGEN_CACHE_DIR", "/var/cache/x");
    env.put("GPUGEN_EC2_ENDPOINT", "https://vpce-1.ec2.us-west-2.vpce.amazonaws.com");
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "9");
    env.put("GPUGEN_MAX_ATTEMPTS", "2");
    InventoryConfig c =
        read(
            Files.readString(StandIns.SMALL_FLEET_CONFIG)
                .replace(
                    "\"apiCallTimeoutSeconds\"", "\"cacheDir\": \"c\", \"apiCallTimeoutSeconds\""),
            env);
    assertEquals("other", c.cluster());
    assertEquals(Optional.of("staging"), c.environment());
    assertEquals(List.of("us-west-2", "eu-central-1"), c.regions());
    assertEquals(List.of("l4"), List.copyOf(c.pools().keySet()));
    assertEquals(Optional.of("550.1"), c.pools().get("l4").driver());
    assertEquals(List.of(HostnameSource.of("instance-id").orElseThrow()), c.hostnames());
    assertEquals(AnsibleHostSource.PRIVATE_DNS, c.ansibleHost());
    assertEquals(List.of("running", "stopped"), c.states());
    assertEquals(0, c.cacheTtlSeconds());
    assertEquals(Path.of("/var/cache/x"), c.cacheDir());
    assertEquals(
        Optional.of(URI.create("https://vpce-1.ec2.us-west-2.vpce.amazonaws.com")), c.endpoint());
    assertEquals(Duration.ofSeconds(9), c.apiCallTimeout());
    assertEquals(2, c.maxAttempts());
  }

  @Test
  void aRelativeCacheDirIsBesideTheSettingsFile() throws Exception {
    InventoryConfig c = read("{\"cluster\": \"demo\", \"cacheDir\": \".cache\"}", Map.of());
    assertEquals(tmp.resolve(".cache"), c.cacheDir());
  }

  @Test
  void theEnvironmentAloneIsEnoughWithoutAFile() throws Exception {
    InventoryConfig c =
        new InventoryConfigReader(Map.of("GPUGEN_CLUSTER", "demo", "HOME", "/h"))
            .read(Optional.empty());
    assertEquals("demo", c.cluster());
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    Failure e =
        invalid(
            "{\"hostname\": \"fqdn\", \"ansibleHost\": \"ipv6\", \"states\": [],"
                + " \"regions\": [\"US East\"], \"cacheTtlSeconds\": -1,"
                + " \"apiCallTimeoutSeconds\": 0, \"maxAttempts\": 11}",
            Map.of());
    assertEquals(Failure.Kind.INVALID_INPUT, e.kind());
    for (String fragment :
        List.of(
            "\"cluster\" is required",
            "\"hostname\" must be one of name-tag|instance-id",
            "\"ansibleHost\" must be one of private-ip|public-ip|private-dns",
            "\"states\" must list at least one",
            "invalid region \"US East\"",
            "\"cacheTtlSeconds\" must be 0",
            "\"apiCallTimeoutSeconds\" must be 1..3600",
            "\"maxAttempts\" must be 1..10")) {
      assertTrue(e.getMessage().contains(fragment), fragment + " in " + e.getMessage());
    }
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void malformedJsonNamesTheLine() {
    String syntax = invalid("{\"cluster\": \"demo\",\n}", Map.of()).getMessage();
    assertTrue(syntax.contains("gpugen-inventory.json:2:"), syntax);
    assertTrue(syntax.contains(": not valid JSON: "), syntax);
  }

  @Test
  void structuralAndValueProblemsAreAllReportedInOneLine() {
    Failure e =
        invalid(
            "{\n  \"cluster\": \"demo\",\n  \"cluster\": \"x\",\n  \"colour\": 1,\n"
                + "  \"maxAttempts\": 99,\n  \"environment\": \"{{ x }}\"\n}",
            Map.of());
    String m = e.getMessage();
    assertEquals(1, m.lines().count(), m);
    for (String fragment :
        List.of(
            "duplicate key \"cluster\" at line 3, column 3",
            "unknown field \"colour\"",
            "\"maxAttempts\" must be 1..10, got 99",
            "\"environment\" contains a Jinja2 delimiter")) {
      assertTrue(m.contains(fragment), fragment + " in " + m);
    }
  }

  @Test
  void wrongTypesAreNamed() {
    assertTrue(invalid("[1]", Map.of()).getMessage().contains("expected a JSON object"));
    Failure e =
        invalid(
            "{\"cluster\": 7, \"maxAttempts\": 2.5, \"regions\": \"us-east-1\","
                + " \"pools\": {\"p\": {\"driver\": 550, \"gpu\": \"a100\"}}}",
            Map.of());
    for (String fragment :
        List.of(
            "\"cluster\" must be a string",
            "\"maxAttempts\" must be a whole number",
            "\"regions\" must be a list of strings",
            "\"pools.p.driver\" must be a string",
            "unknown field \"pools.p.gpu\"")) {
      assertTrue(e.getMessage().contains(fragment), fragment + " in " + e.getMessage());
    }
  }

  @Test
  void badVariablesAreNamed() {
    Failure e =
        invalid(
            "{\"cluster\": \"demo\"}",
            Map.of("GPUGEN_CACHE_TTL_SECONDS", "five", "GPUGEN_POOLS", "[not an object"));
    assertTrue(e.getMessage().contains("GPUGEN_CACHE_TTL_SECONDS must be a whole number"));
    assertTrue(e.getMessage().contains("GPUGEN_POOLS is not a JSON object"));
  }

  @Test
  void settingsThatWouldBecomeJinjaAreRefused() {
    Failure e =
        invalid(
            "{\"cluster\": \"demo\", \"pools\": {\"p\": {\"driver\": \"{{ lookup('env','HOME') }}\"}}}",
            Map.of());
    assertTrue(e.getMessage().contains("\"pools.p.driver\" contains a Jinja2 delimiter"));
  }

  @Test
  void anEndpointWithCredentialsIsRefusedWithoutEchoingThem() {
    Failure e =
        invalid(
            "{\"cluster\": \"demo\", \"endpoint\": \"https://AKID:topsecret@ec2.example\"}",
            Map.of());
    assertTrue(e.getMessage().contains("must not contain credentials"));
    assertFalse(e.getMessage().contains("topsecret"));
    assertTrue(
        invalid("{\"cluster\": \"demo\", \"endpoint\": \"ftp://x\"}", Map.of())
            .getMessage()
            .contains("http(s) URL"));
  }

  /**
   * A password in the endpoint is never echoed, whatever else is wrong with the URL: java.net.URI
   * reads an authority with '_' in the host as registry-based (no user info, no host), and a space
   * makes it no URI at all; both used to print the whole text.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://admin:hunter2secret@my_host:8080/",
        "https://AKID:hunter2secret@ec2.example",
        "https://hunter2secret@ec2.example",
        "http://admin:hunter2secret@ec2 .example/",
        "https://ec2.example/?X-Amz-Security-Token=hunter2secret",
        "https://ec2.example/#hunter2secret"
      })
  void anEndpointIsNeverEchoedWithItsCredentials(String endpoint) {
    Failure fromEnv = invalid("{\"cluster\": \"demo\"}", Map.of("GPUGEN_EC2_ENDPOINT", endpoint));
    assertTrue(fromEnv.getMessage().contains("GPUGEN_EC2_ENDPOINT"), fromEnv.getMessage());
    assertFalse(fromEnv.getMessage().contains("hunter2"), fromEnv.getMessage());
    Failure fromFile =
        invalid("{\"cluster\": \"demo\", \"endpoint\": \"" + endpoint + "\"}", Map.of());
    assertFalse(fromFile.getMessage().contains("hunter2"), fromFile.getMessage());
  }

  @Test
  void theAwsEc2StyleOptionsReadFromTheFile() throws Exception {
    InventoryConfig c =
        read(
            "{\"cluster\": \"demo\", \"hostnames\": [\"tag:Name\", \"private-dns-name\"],"
                + " \"keyedGroups\": [{\"tag\": \"team\"}],"
                + " \"filters\": {\"instance-type\": \"p5.48xlarge\", \"tag:team\": [\"ml\", \"cv\"]},"
                + " \"assumeRoleArn\": \"arn:aws:iam::123456789012:role/inventory\","
                + " \"assumeRoleExternalId\": \"ext-42\", \"deadlineSeconds\": 90}",
            Map.of());
    assertEquals(
        List.of("tag:Name", "private-dns-name"),
        c.hostnames().stream().map(HostnameSource::setting).toList());
    assertEquals(List.of(new KeyedGroup("team", "team")), c.keyedGroups());
    assertEquals(List.of("ml", "cv"), c.filters().get("tag:team"));
    assertEquals(List.of("p5.48xlarge"), c.filters().get("instance-type"));
    assertEquals(
        Optional.of(
            new AssumeRole(
                "arn:aws:iam::123456789012:role/inventory",
                Optional.of("ext-42"),
                "gpugen-inventory")),
        c.assumeRole());
    assertEquals(Duration.ofSeconds(90), c.deadline());
  }

  @Test
  void badAwsEc2StyleOptionsAreAllNamedAndSecretsNotEchoed() {
    Failure e =
        invalid(
            "{\"cluster\": \"demo\", \"hostname\": \"name-tag\", \"hostnames\": [\"instance-id\"],"
                + " \"assumeRoleArn\": \"arn:aws:iam::12:user/x\","
                + " \"assumeRoleExternalId\": \"a b c\", \"deadlineSeconds\": 0,"
                + " \"filters\": {\"Bad Name\": \"x\"}, \"keyedGroups\": [{\"prefix\": \"x\"}]}",
            Map.of());
    assertEquals(Failure.Kind.INVALID_INPUT, e.kind());
    String m = e.getMessage();
    assertTrue(m.contains("set \"hostnames\" or \"hostname\", not both"), m);
    assertTrue(m.contains("\"assumeRoleArn\" must be an IAM role ARN"), m);
    assertTrue(m.contains("\"assumeRoleExternalId\" must be 2 to 1224"), m);
    assertFalse(m.contains("a b c"), "the external id is not echoed: " + m);
    assertTrue(m.contains("\"deadlineSeconds\" must be 1..3600, got 0"), m);
    assertTrue(m.contains("\"filters.Bad Name\" is not an EC2 filter name"), m);
    assertTrue(m.contains("\"keyedGroups[0].tag\" must be a tag key"), m);
  }
}
