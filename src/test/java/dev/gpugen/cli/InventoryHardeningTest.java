package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Fault;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.inventory.StandIns.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gpugen inventory} against a hostile EC2 endpoint and a shared machine: field formats,
 * reserved host names, a cache another user planted, endless pages and bodies, FIFOs and devices as
 * files; and the aws_ec2-style options (hostnames, keyedGroups, filters). Every failure is one line
 * and an exit code, and nothing unsafe ever reaches stdout.
 */
class InventoryHardeningTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What must never reach Ansible from hostile data. */
  private static final List<String> UNSAFE =
      List.of("{{", "{%", "ProxyCommand", "-o ", "lookup(", "localhost\"", "\"all\"");

  @TempDir Path tmp;
  private Ec2StandIn standIn;
  private Path cache;
  private Path config;

  @BeforeEach
  void start() throws Exception {
    standIn = Ec2StandIn.start();
    cache = tmp.resolve("cache");
    config = tmp.resolve("gpugen-inventory.json");
    Files.copy(StandIns.SMALL_FLEET_CONFIG, config);
  }

  @AfterEach
  void stop() {
    standIn.close();
  }

  private Map<String, String> env(String... more) {
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_EC2_ENDPOINT", standIn.endpoint().toString());
    env.put("GPUGEN_CACHE_DIR", cache.toString());
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "120");
    for (int i = 0; i + 1 < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private Run list(String... more) {
    return StandIns.run(
        StandIns.context(env(more), Clock.systemUTC()), "--list", "--config", config.toString());
  }

  private static void assertSafe(Run run) {
    for (String bad : UNSAFE) {
      assertFalse(run.out().contains(bad), "\"" + bad + "\" reached stdout:\n" + run.out());
    }
  }

  private static Instance hostile(
      String id, String name, String privateIp, String privateDns, String az, String type) {
    return new Instance(
        id,
        "r-0123456789abcdef0",
        type,
        az,
        "running",
        null,
        privateIp,
        null,
        privateDns,
        Instant.parse("2025-01-02T03:04:05Z"),
        Fleet.tags("demo", "prod", "a100-train", name),
        "ami-0123456789abcdef0",
        null);
  }

  @Test
  void everyEc2FieldIsCheckedByItsFormatAndBadValuesAreDroppedWithAWarning() throws Exception {
    standIn.add(
        hostile(
            "i-0b00000000000000a",
            "node-a",
            "-o ProxyCommand=touch /tmp/pwned",
            "ip-10-0-0-1.ec2.internal -o ProxyCommand=x",
            "us-east-1a{{ x }}",
            "p4d.24xlarge;rm"));
    standIn.add(
        hostile(
            "{{ lookup('pipe','id') }}",
            "node-b",
            "10.0.0.2",
            "ip-10-0-0-2.ec2.internal",
            "us-east-1a",
            "p4d.24xlarge"));
    Run run = list();
    assertEquals(0, run.code(), run.err());
    assertSafe(run);
    JsonNode root = JSON.readTree(run.out());
    JsonNode vars = root.path("_meta").path("hostvars").path("node-a");
    assertEquals("i-0b00000000000000a", vars.path("gpugen_instance_id").asText());
    assertTrue(vars.path("ansible_host").isMissingNode(), vars.toString());
    assertTrue(vars.path("gpugen_private_dns").isMissingNode(), vars.toString());
    assertTrue(vars.path("gpugen_az").isMissingNode(), vars.toString());
    assertTrue(vars.path("gpugen_instance_type").isMissingNode(), vars.toString());
    assertEquals(1, root.path("_meta").path("hostvars").size(), "the bad id is dropped whole");
    assertTrue(run.err().contains("dropped the private IP of i-0b00000000000000a"), run.err());
    assertTrue(run.err().contains("is not an EC2 instance id"), run.err());
  }

  @Test
  void reservedNamesFallBackToTheInstanceId() throws Exception {
    List<String> reserved = List.of("localhost", "127.0.0.1", "all", "ungrouped", "LocalHost");
    for (int i = 0; i < reserved.size(); i++) {
      standIn.add(
          hostile(
              String.format("i-0c%015d", i),
              reserved.get(i),
              "10.0.1." + (i + 1),
              "ip-10-0-1-" + (i + 1) + ".ec2.internal",
              "us-east-1a",
              "p4d.24xlarge"));
    }
    Run run = list();
    assertEquals(0, run.code(), run.err());
    JsonNode hosts = JSON.readTree(run.out()).path("_meta").path("hostvars");
    for (int i = 0; i < reserved.size(); i++) {
      assertTrue(hosts.has(String.format("i-0c%015d", i)), hosts.toString());
    }
    for (String name : reserved) {
      assertFalse(hosts.has(name), name);
    }
  }

  /**
   * EC2 data that would make Ansible connect to the controller itself or to no one host: a
   * loopback, unspecified, link-local or multicast private IP is dropped with a warning (no
   * ansible_host, no gpugen_private_ip); a Name tag that resolvers read as 127.0.0.1 (127.1,
   * 0x7f000001, ip6-localhost) never names a host, which matters most when the host has no valid IP
   * and Ansible connects to its name; a private DNS name "localhost" is dropped alike.
   */
  @Test
  void loopbackAndOtherSpecialAddressesNeverBecomeAConnectionTarget() throws Exception {
    String[][] cases = {
      {"node-lo", "127.0.0.1", "a loopback address"},
      {"node-zero", "0.0.0.0", "an unspecified address"},
      {"node-imds", "169.254.169.254", "a link-local address"},
      {"node-mcast", "224.0.0.1", "a multicast address"},
      {"127.1", "not-an-ip", "is not a valid private IP"},
      {"0x7f000001", "not-an-ip", "is not a valid private IP"},
      {"ip6-localhost", "not-an-ip", "is not a valid private IP"},
    };
    for (int i = 0; i < cases.length; i++) {
      standIn.add(
          hostile(
              String.format("i-0d%015d", i),
              cases[i][0],
              cases[i][1],
              "ip-10-0-2-" + (i + 1) + ".ec2.internal",
              "us-east-1a",
              "p4d.24xlarge"));
    }
    standIn.add(
        hostile(
            "i-0e000000000000001",
            "node-dns",
            "not-an-ip",
            "localhost",
            "us-east-1a",
            "p4d.24xlarge"));
    for (String source : List.of("private-ip", "private-dns")) {
      Run run = list("GPUGEN_ANSIBLE_HOST", source);
      assertEquals(0, run.code(), run.err());
      JsonNode hosts = JSON.readTree(run.out()).path("_meta").path("hostvars");
      assertEquals(cases.length + 1, hosts.size(), hosts.toString());
      List<String> special = new java.util.ArrayList<>(List.of("localhost"));
      for (String[] c : cases) {
        special.add(c[1].equals("not-an-ip") ? c[0] : c[1]);
      }
      // Where Ansible connects: ansible_host, else the inventory name.
      hosts
          .fieldNames()
          .forEachRemaining(
              name -> {
                JsonNode vars = hosts.path(name);
                String target = vars.path("ansible_host").asText(name);
                assertFalse(
                    special.contains(target), name + " connects to " + target + ": " + vars);
                assertTrue(vars.path("gpugen_private_ip").isMissingNode(), vars.toString());
                assertFalse(special.contains(vars.path("gpugen_private_dns").asText()));
              });
      for (int i = 0; i < 4; i++) {
        assertTrue(
            run.err()
                .contains(
                    String.format("dropped the private IP of i-0d%015d: ", i)
                        + "\""
                        + cases[i][1]
                        + "\" is "
                        + cases[i][2]),
            run.err());
      }
      assertTrue(
          run.err().contains("dropped the private DNS name of i-0e000000000000001: \"localhost\""),
          run.err());
    }
  }

  @Test
  void hostnamesIsAnOrderedPreferenceAndTheFirstUniqueValueWins() throws Exception {
    standIn.addAll(StandIns.smallFleet());
    Run run = list("GPUGEN_HOSTNAMES", "tag:Name,private-dns-name,instance-id");
    assertEquals(0, run.code(), run.err());
    JsonNode hosts = JSON.readTree(run.out()).path("_meta").path("hostvars");
    assertTrue(hosts.has("demo-a100-train-0"), hosts.toString());
    // The twins share a Name, "spot" is a group, "cpu node" is no host name, one Name is Jinja
    // and one instance has none: those six fall to their private DNS names, not to their ids.
    assertTrue(hosts.toString().contains("\"gpugen_name\":\"twin\""), "the tag stays a variable");
    List<String> names = new java.util.ArrayList<>();
    hosts.fieldNames().forEachRemaining(names::add);
    assertEquals(9, names.size());
    assertEquals(
        6, names.stream().filter(n -> n.endsWith(".ec2.internal")).count(), names.toString());

    Run ipFirst = list("GPUGEN_HOSTNAMES", "private-ip-address");
    JsonNode ipHosts = JSON.readTree(ipFirst.out()).path("_meta").path("hostvars");
    ipHosts.fieldNames().forEachRemaining(n -> assertTrue(n.startsWith("10.0."), n));

    StandIns.assertFailure(
        list("GPUGEN_HOSTNAMES", "tag:Name,dns-nme"), 1, "\"hostnames\" has \"dns-nme\"");
  }

  @Test
  void keyedGroupsAddAGroupPerTagValueSanitisedAndHostileValuesDropped() throws Exception {
    standIn.add(Fleet.cluster(2).get(0).withTag("team", "ml-research"));
    standIn.add(Fleet.cluster(2).get(1).withTag("team", "{{ 7*7 }}"));
    Run run = list("GPUGEN_KEYED_GROUPS", "[{\"tag\": \"team\", \"prefix\": \"team\"}]");
    assertEquals(0, run.code(), run.err());
    assertSafe(run);
    JsonNode root = JSON.readTree(run.out());
    assertEquals(1, root.path("team_ml_research").path("hosts").size(), run.out());
    assertTrue(run.err().contains("dropped the tag team of"), run.err());

    StandIns.assertFailure(
        list("GPUGEN_KEYED_GROUPS", "[{\"tag\": \"team\", \"prefix\": \"pool\"}]"),
        1,
        "would name gpugen's own groups (pool_*)");
  }

  @Test
  void filtersAreSentToEc2AsServerSideFilters() throws Exception {
    standIn.addAll(StandIns.smallFleet());
    Run run = list("GPUGEN_FILTERS", "{\"instance-type\": [\"p5.48xlarge\"]}");
    assertEquals(0, run.code(), run.err());
    JsonNode root = JSON.readTree(run.out());
    root.path("_meta")
        .path("hostvars")
        .forEach(v -> assertEquals("p5.48xlarge", v.path("gpugen_instance_type").asText()));
    assertTrue(
        standIn.requestLog().stream()
            .anyMatch(r -> r.containsValue("instance-type") && r.containsValue("p5.48xlarge")),
        standIn.requestLog().toString());

    StandIns.assertFailure(
        list("GPUGEN_FILTERS", "{\"instance-state-name\": \"stopped\"}"),
        1,
        "\"filters.instance-state-name\" is a filter gpugen sets itself; use \"states\"");
    // EC2 refuses a filter it does not know, and so does the stand-in.
    StandIns.assertFailure(
        list("GPUGEN_FILTERS", "{\"no-such-filter\": \"x\"}"), 3, "InvalidParameterValue");
  }

  @Test
  void aCacheFolderWritableByOthersIsNotUsedAndSaysSo() throws Exception {
    standIn.addAll(StandIns.smallFleet());
    Files.createDirectories(cache);
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
    Run first = list();
    assertEquals(0, first.code(), first.err());
    assertTrue(first.err().contains("warning: not using the cache: " + cache), first.err());
    assertTrue(first.err().contains("is writable by others (rwxrwxrwx)"), first.err());
    try (Stream<Path> files = Files.list(cache)) {
      assertEquals(0, files.count(), "nothing written into it");
    }
  }

  @Test
  void aPlantedCacheFileIsAMissAndNeverReachesStdout() throws Exception {
    standIn.addAll(StandIns.smallFleet());
    Run first = list();
    assertEquals(0, first.code(), first.err());
    Path file;
    try (Stream<Path> files = Files.list(cache)) {
      file =
          files
              .filter(f -> f.getFileName().toString().startsWith("inventory-"))
              .filter(f -> f.getFileName().toString().endsWith(".json"))
              .findFirst()
              .orElseThrow();
    }
    // Another writer keeps the header (key, time, length, MAC) but swaps the body, same length.
    String body = Files.readString(file, StandardCharsets.UTF_8);
    String evil =
        body.replaceFirst(
            "\"ansible_host\": \"10\\.0\\.[0-9.]+\"",
            "\"ansible_ssh_common_args\": \"-o ProxyCommand=touch /tmp/pwned\"");
    assertTrue(evil.contains("ProxyCommand"), "the test plants something");
    evil = evil.substring(0, Math.min(evil.length(), body.length()));
    evil = evil + " ".repeat(body.length() - evil.length());
    assertEquals(body.length(), evil.length());
    Files.writeString(file, evil, StandardCharsets.UTF_8);
    int before = standIn.requests();
    Run second = list();
    assertEquals(0, second.code(), second.err());
    assertSafe(second);
    assertEquals(first.out(), second.out());
    assertTrue(standIn.requests() > before, "a forged file is a miss: EC2 was asked");

    // Group-writable: not read, whatever it holds.
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));
    before = standIn.requests();
    Run third = list("GPUGEN_CACHE_TTL_SECONDS", "3600");
    assertEquals(0, third.code(), third.err());
    assertTrue(standIn.requests() > before, "a group-writable file is a miss");
  }

  /** A 3 GiB cache file (sparse) is never read into memory: a miss, EC2 is asked, no error. */
  @Test
  void aThreeGibCacheFileIsAMissNotAnOutOfMemoryError() throws Exception {
    standIn.addAll(StandIns.smallFleet());
    Run first = list("GPUGEN_CACHE_TTL_SECONDS", "3600");
    assertEquals(0, first.code(), first.err());
    Path file;
    try (Stream<Path> files = Files.list(cache)) {
      file =
          files
              .filter(f -> f.getFileName().toString().startsWith("inventory-"))
              .filter(f -> f.getFileName().toString().endsWith(".json"))
              .findFirst()
              .orElseThrow();
    }
    try (var ch =
        java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
      ch.position(3L << 30).write(java.nio.ByteBuffer.wrap(new byte[] {'}'}));
    }
    int before = standIn.requests();
    Run second = list("GPUGEN_CACHE_TTL_SECONDS", "3600");
    assertEquals(0, second.code(), second.err());
    assertSafe(second);
    assertFalse(second.err().contains("OutOfMemoryError"), second.err());
    assertEquals(first.out(), second.out());
    assertTrue(standIn.requests() > before, "an oversized cache is a miss: EC2 was asked");
  }

  @Test
  void aFifoOrDeviceAsConfigOrCacheNeverHangs() throws Exception {
    Path fifo = tmp.resolve("fifo.json");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mkfifo.waitFor());
    Run fromFifo =
        StandIns.run(
            StandIns.context(env(), Clock.systemUTC()), "--list", "--config", fifo.toString());
    StandIns.assertFailure(fromFifo, 3, "inventory settings " + fifo + " is not a regular file");
    Run fromZero =
        StandIns.run(StandIns.context(env(), Clock.systemUTC()), "--list", "--config", "/dev/zero");
    StandIns.assertFailure(fromZero, 3, "/dev/zero is not a regular file");

    standIn.addAll(StandIns.smallFleet());
    assertEquals(0, list().code());
    Path file;
    try (Stream<Path> files = Files.list(cache)) {
      file =
          files
              .filter(f -> f.getFileName().toString().startsWith("inventory-"))
              .findFirst()
              .orElseThrow();
    }
    Files.delete(file);
    assertEquals(0, new ProcessBuilder("mkfifo", file.toString()).start().waitFor());
    Run withFifoCache = list();
    assertEquals(0, withFifoCache.code(), withFifoCache.err());
    assertTrue(withFifoCache.out().contains("demo-a100-train-0"));
  }

  /** The page limit, 1,000 in the product, here 5: the sixth page is never asked for. */
  @Test
  void anEndlessNextTokenChainEndsWithOneLine() {
    standIn.failAlways(Fault.ENDLESS_PAGES);
    Run run =
        StandIns.run(
            StandIns.context(env("GPUGEN_CACHE_TTL_SECONDS", "0"), Clock.systemUTC(), 5),
            "--list",
            "--config",
            config.toString());
    StandIns.assertFailure(run, 3, "was still returning a NextToken after 5 pages");
    List<Map<String, String>> pages =
        standIn.requestLog().stream()
            .filter(r -> "DescribeInstances".equals(r.get("Action")))
            .toList();
    assertEquals(5, pages.size(), pages::toString);
  }

  @Test
  void anEndlessBodyIsCutOffWithOneLine() {
    standIn.failAlways(Fault.ENDLESS_BODY);
    Run run = list("GPUGEN_CACHE_TTL_SECONDS", "0");
    StandIns.assertFailure(run, 3, "sent a response body larger than 32 MiB; is it really EC2?");
  }

  @Test
  void theTotalDeadlineEndsAHangingListing() {
    standIn.failAlways(Fault.HANG);
    Run run = list("GPUGEN_CACHE_TTL_SECONDS", "0", "GPUGEN_DEADLINE_SECONDS", "2");
    StandIns.assertFailure(run, 3, "took longer than 2 s (\"deadlineSeconds\")");
  }

  @Test
  void anEmptyResultIsNeverCachedAndRefreshCacheComesFromTheEnvironment() throws Exception {
    Run empty = list();
    assertEquals(0, empty.code(), empty.err());
    assertTrue(empty.err().contains("warning: no running instances of cluster demo"), empty.err());
    assertFalse(
        Files.exists(cache)
            && Files.list(cache).anyMatch(f -> f.getFileName().toString().startsWith("inventory-")),
        "an empty inventory is not cached");

    standIn.addAll(StandIns.smallFleet());
    assertEquals(0, list().code());
    int before = standIn.requests();
    Run verbose =
        StandIns.run(
            StandIns.context(env(), Clock.systemUTC()),
            "--list",
            "--verbose",
            "--config",
            config.toString());
    assertEquals(before, standIn.requests(), "a hit asks nothing");
    assertTrue(
        verbose.err().contains("ttl 300 s (\"cacheTtlSeconds\"; default 300)"), verbose.err());
    assertTrue(verbose.err().contains("served from cache"), verbose.err());
    Run refreshed = list("GPUGEN_REFRESH_CACHE", "1");
    assertEquals(0, refreshed.code(), refreshed.err());
    assertTrue(standIn.requests() > before, "GPUGEN_REFRESH_CACHE=1 asks EC2");
  }

  @Test
  void errorsNameTheVariableTheUserSetAndAMissingSettingsFile() {
    Map<String, String> env = env("GPUGEN_CACHE_TTL_SECONDS", "0");
    env.remove("GPUGEN_EC2_ENDPOINT");
    env.put("AWS_ENDPOINT_URL", "http://127.0.0.1:9");
    Run run =
        StandIns.run(
            StandIns.context(env, Clock.systemUTC()), "--list", "--config", config.toString());
    StandIns.assertFailure(
        run,
        3,
        "cannot connect to endpoint http://127.0.0.1:9 (AWS_ENDPOINT_URL)",
        "check AWS_ENDPOINT_URL");

    Run none = StandIns.run(StandIns.context(Map.of(), Clock.systemUTC()), "--list");
    StandIns.assertFailure(
        none,
        3,
        "no gpugen-inventory.json here; run from the rendered ansible/ folder or pass --config");
  }
}
