package dev.gpugen.inventory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpugen.failure.Failure;
import dev.gpugen.inventory.Ec2StandIn.Fault;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real AWS SDK client against the stand-in: what it sends, what it parses, how it fails. */
class Ec2InstanceSourceTest {
  private Ec2StandIn standIn;

  @BeforeEach
  void start() throws Exception {
    standIn = Ec2StandIn.start();
  }

  @AfterEach
  void stop() {
    standIn.close();
  }

  private InventoryConfig config(String... more) throws Failure {
    Map<String, String> env = StandIns.env(standIn, Path.of("/nonexistent"), more);
    return new InventoryConfigReader(env).read(Optional.empty());
  }

  private List<HostFacts> describe(String... more) throws Failure {
    return new Ec2InstanceSource(config(more), StandIns.CREDENTIALS).describe("us-east-1");
  }

  @Test
  void everyFieldTheInventoryUsesIsRead() throws Exception {
    standIn.add(
        Ec2StandIn.Instance.of(
                "i-0123456789abcdef0",
                "p5.48xlarge",
                "us-east-1b",
                Fleet.tags("demo", "prod", "h100-infer", "node-1"))
            .withSpot()
            .withPublicIp("203.0.113.7")
            .withTag("Empty", "")
            .withTag("Quote", "a<b & \"c\" 'd'"));
    List<HostFacts> hosts = describe();
    assertEquals(1, hosts.size());
    HostFacts h = hosts.get(0);
    assertEquals("i-0123456789abcdef0", h.instanceId());
    assertEquals("us-east-1", h.region());
    assertEquals("p5.48xlarge", h.instanceType());
    assertEquals(Optional.of("us-east-1b"), h.availabilityZone());
    assertEquals("running", h.state());
    assertEquals(Optional.of("spot"), h.lifecycle());
    assertTrue(h.privateIp().orElseThrow().startsWith("10.0."));
    assertEquals(Optional.of("203.0.113.7"), h.publicIp());
    assertTrue(h.privateDns().orElseThrow().endsWith(".ec2.internal"));
    assertEquals(Optional.of(Instant.parse("2025-01-02T03:04:05Z")), h.launchTime());
    assertEquals(Optional.of("node-1"), h.tag("Name"));
    assertEquals(Optional.of("h100-infer"), h.tag("gpugen:pool"));
    assertEquals(Optional.of(""), h.tag("Empty"));
    assertEquals(Optional.of("a<b & \"c\" 'd'"), h.tag("Quote"));
  }

  @Test
  void filtersAreSentServerSideWithMaxResults() throws Exception {
    standIn.addAll(Fleet.cluster(3));
    describe();
    Map<String, String> request = standIn.requestLog().get(0);
    assertEquals("DescribeInstances", request.get("Action"));
    assertEquals("1000", request.get("MaxResults"));
    Map<String, String> filters = new java.util.TreeMap<>();
    for (int i = 1; request.containsKey("Filter." + i + ".Name"); i++) {
      filters.put(request.get("Filter." + i + ".Name"), request.get("Filter." + i + ".Value.1"));
    }
    assertEquals(
        Map.of(
            "tag:ManagedBy", "gpugen",
            "tag:gpugen:cluster", "demo",
            "tag:gpugen:environment", "prod",
            "instance-state-name", "running"),
        filters);
  }

  @Test
  void everyPageIsFollowedWithoutDuplicates() throws Exception {
    standIn.listZones(false).addAll(Fleet.cluster(2_500)).addAll(Fleet.noise(2_500, 600));
    List<HostFacts> hosts = describe();
    assertEquals(2_500, hosts.size());
    Set<String> ids = new HashSet<>();
    hosts.forEach(h -> ids.add(h.instanceId()));
    assertEquals(2_500, ids.size());
    List<Map<String, String>> log = standIn.requestLog();
    assertEquals(
        List.of(
            "DescribeInstances",
            "DescribeAvailabilityZones",
            "DescribeInstances",
            "DescribeInstances"),
        log.stream().map(r -> r.get("Action")).toList(),
        "one chain of pages of 1000 after the zones were refused");
    assertTrue(log.get(2).containsKey("NextToken"));
    assertTrue(log.get(3).containsKey("NextToken"));
  }

  @Test
  void aLargeFleetIsPagedByZoneInParallelWithoutDuplicates() throws Exception {
    standIn.addAll(Fleet.cluster(5_000)).addAll(Fleet.noise(5_000, 600));
    List<HostFacts> hosts = describe("GPUGEN_API_CALL_TIMEOUT_SECONDS", "600");
    assertEquals(5_000, hosts.size());
    Set<String> ids = new HashSet<>();
    hosts.forEach(h -> ids.add(h.instanceId()));
    assertEquals(5_000, ids.size());
    List<Map<String, String>> partitions =
        standIn.requestLog().stream()
            .filter(r -> "availability-zone".equals(r.get("Filter.5.Name")))
            .toList();
    // Six zones; the three used ones hold 1,667 each: two pages apiece.
    assertEquals(9, partitions.size(), standIn.requestLog().toString());
    assertEquals(3, partitions.stream().filter(r -> r.containsKey("NextToken")).count());
  }

  @Test
  void aSmallFleetCostsOneCall() throws Exception {
    standIn.addAll(Fleet.cluster(999));
    // A generous attempt timeout: on a loaded machine a retried attempt would be a second call.
    assertEquals(999, describe("GPUGEN_API_CALL_TIMEOUT_SECONDS", "600").size());
    assertEquals(1, standIn.requests());
  }

  @Test
  void otherClustersEnvironmentsAndStatesAreFilteredByTheServer() throws Exception {
    standIn.addAll(Fleet.cluster(10)).addAll(Fleet.noise(10, 10));
    List<HostFacts> hosts = describe();
    assertEquals(10, hosts.size());
    assertTrue(hosts.stream().allMatch(h -> h.tag("Name").orElseThrow().startsWith("demo-")));

    List<HostFacts> withStopped = describe("GPUGEN_STATES", "running,stopped");
    assertEquals(12, withStopped.size());
  }

  @Test
  void throttlingThenSuccessIsRetried() throws Exception {
    standIn.addAll(Fleet.cluster(5)).failNext(Fault.THROTTLE).failNext(Fault.THROTTLE);
    assertEquals(5, describe().size());
    assertEquals(3, standIn.requests());
  }

  @Test
  void aTransientServerErrorIsRetried() throws Exception {
    standIn.addAll(Fleet.cluster(5)).failNext(Fault.INTERNAL_ERROR);
    assertEquals(5, describe().size());
  }

  @Test
  void throttlingBeyondTheRetryBudgetFailsNamingTheSetting() {
    standIn.failAlways(Fault.THROTTLE);
    Failure e = assertThrows(Failure.class, this::describe);
    assertEquals(Failure.Kind.ENVIRONMENT, e.kind());
    assertTrue(e.getMessage().contains("RequestLimitExceeded"), e.getMessage());
    assertTrue(e.getMessage().contains("after 3 attempts"), e.getMessage());
    assertTrue(e.getMessage().contains("maxAttempts"), e.getMessage());
    assertEquals(3, standIn.requests());
  }

  @Test
  void aPersistentServerErrorFails() {
    standIn.failAlways(Fault.INTERNAL_ERROR);
    Failure e = assertThrows(Failure.class, this::describe);
    assertTrue(e.getMessage().contains("HTTP 500 InternalError after 3 attempts"), e.getMessage());
  }

  @Test
  void garbageInsteadOfXmlFails() {
    standIn.failAlways(Fault.GARBAGE);
    Failure e = assertThrows(Failure.class, this::describe);
    assertTrue(e.getMessage().contains("not EC2 XML"), e.getMessage());
  }

  @Test
  void aHangingEndpointFailsWithinTheCallTimeout() {
    standIn.failAlways(Fault.HANG);
    long start = System.nanoTime();
    Failure e = assertThrows(Failure.class, () -> describe("GPUGEN_API_CALL_TIMEOUT_SECONDS", "2"));
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(millis < 6_000, "took " + millis + " ms");
    assertTrue(e.getMessage().contains("no answer from endpoint"), e.getMessage());
    assertTrue(e.getMessage().contains("apiCallTimeoutSeconds"), e.getMessage());
  }

  @Test
  void rejectedCredentialsFailWithoutRetrying() {
    standIn.acceptKeys("AKIDSOMEONEELSE");
    Failure e = assertThrows(Failure.class, this::describe);
    assertEquals(Failure.Kind.ENVIRONMENT, e.kind());
    assertTrue(e.getMessage().contains("credentials were not accepted"), e.getMessage());
    assertTrue(e.getMessage().contains("AWS_PROFILE"), e.getMessage());
    assertTrue(!e.getMessage().contains("secret"), e.getMessage());
    assertEquals(1, standIn.requests());
  }

  @Test
  void aClosedPortFailsNamingTheEndpoint() throws Exception {
    String endpoint = standIn.endpoint().toString();
    standIn.close();
    Failure e = assertThrows(Failure.class, this::describe);
    assertTrue(e.getMessage().contains("cannot connect to endpoint " + endpoint), e.getMessage());
    assertTrue(e.getMessage().contains("GPUGEN_EC2_ENDPOINT"), e.getMessage());
  }

  @Test
  void aBrokenSdkSettingIsAnEnvironmentErrorNotACrash() {
    // The SDK reads aws.maxAttempts (or AWS_MAX_ATTEMPTS) while the client is built.
    System.setProperty("aws.maxAttempts", "bogus");
    try {
      Failure e = assertThrows(Failure.class, this::describe);
      assertEquals(Failure.Kind.ENVIRONMENT, e.kind());
      assertTrue(e.getMessage().startsWith("cannot set up the AWS SDK"), e.getMessage());
      assertTrue(e.getMessage().contains("AWS_*"), e.getMessage());
    } finally {
      System.clearProperty("aws.maxAttempts");
    }
    assertEquals(0, standIn.requests());
  }
}
