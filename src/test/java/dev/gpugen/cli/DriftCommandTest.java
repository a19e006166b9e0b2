package dev.gpugen.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.Golden;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.Ec2StandIn;
import dev.gpugen.inventory.Ec2StandIn.Instance;
import dev.gpugen.inventory.Fleet;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.spec.Sha256;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code gpugen drift} against the EC2 stand-in on 127.0.0.1 and against fact files. */
class DriftCommandTest {
  static final Path SPEC = Golden.repo().resolve("examples/aws-h100/cluster.yaml");
  static final String GROUP = "h100-training-prod-h100";

  @TempDir Path tmp;
  private Ec2StandIn standIn;

  @BeforeAll
  static void noMetadataService() {
    // The SDK's twin of AWS_EC2_METADATA_DISABLED=true: never ask 169.254.169.254.
    System.setProperty("aws.disableEc2Metadata", "true");
  }

  @BeforeEach
  void start() throws Exception {
    standIn = Ec2StandIn.start();
  }

  @AfterEach
  void stop() {
    standIn.close();
  }

  record Run(int exit, String out, String err) {}

  static Run drift(Map<String, String> env, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    DriftCommand.Context context =
        new DriftCommand.Context(
            env, config -> new Ec2InstanceSource(config, StandIns.CREDENTIALS));
    int exit =
        new CommandLine(new DriftCommand(context))
            .setExecutionExceptionHandler(new Failures())
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  static Map<String, String> env(String endpoint) {
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_EC2_ENDPOINT", endpoint);
    env.put("GPUGEN_API_CALL_TIMEOUT_SECONDS", "5");
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    env.put("AWS_ACCESS_KEY_ID", Ec2StandIn.ACCESS_KEY_ID);
    env.put("AWS_SECRET_ACCESS_KEY", "secret");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    return env;
  }

  private Map<String, String> env() {
    return env(standIn.endpoint().toString());
  }

  /** A node of the reference spec's pool h100 as Terraform launches it. */
  static Instance node(int n) {
    return Instance.of(
            Fleet.id(n),
            "p5.48xlarge",
            "us-east-1a",
            Fleet.tags("h100-training", "prod", "h100", "h100-training-h100-" + n))
        .withSpot()
        .withPlacementGroup(GROUP);
  }

  static List<Instance> fleet(int n) {
    List<Instance> fleet = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      fleet.add(node(i));
    }
    return fleet;
  }

  @Test
  void aFleetAsSpecifiedIsInSync() {
    standIn.addAll(fleet(16));
    // Another cluster's nodes are not this cluster's extra nodes.
    standIn.add(
        Instance.of(
            Fleet.id(99), "p5.48xlarge", "us-east-1a", Fleet.tags("other", "prod", "h100", "x")));
    Run r = drift(env(), SPEC.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("in sync"), r.out());
    assertEquals("", r.err());
  }

  @Test
  void missingWrongTypeOnDemandAndOutsideThePlacementGroupAreReported() {
    List<Instance> fleet = fleet(12);
    fleet.add(
        Instance.of(
                Fleet.id(12),
                "p4d.24xlarge",
                "us-east-1a",
                Fleet.tags("h100-training", "prod", "h100", "wrong-type"))
            .withSpot()
            .withPlacementGroup(GROUP));
    fleet.add(
        Instance.of(
                Fleet.id(13),
                "p5.48xlarge",
                "us-east-1a",
                Fleet.tags("h100-training", "prod", "h100", "on-demand"))
            .withPlacementGroup(GROUP));
    fleet.add(node(14).withPlacementGroup(null));
    standIn.addAll(fleet);
    Run r = drift(env(), SPEC.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("4 difference(s)"), r.out());
    assertTrue(
        r.out().matches("(?s).*h100 +- +missing +expected 16 instances, found 15 instances.*"),
        r.out());
    assertTrue(
        r.out()
            .contains(Fleet.id(12) + "  instance-type    expected p5.48xlarge, found p4d.24xlarge"),
        r.out());
    assertTrue(
        r.out().contains(Fleet.id(13) + "  market           expected spot, found on-demand"),
        r.out());
    assertTrue(
        r.out().contains(Fleet.id(14) + "  placement-group  expected " + GROUP + ", found none"),
        r.out());
  }

  @Test
  void aNodeOnAnotherImageOrTemplateVersionThanItsPoolIsReported() {
    List<Instance> fleet = new ArrayList<>();
    for (Instance i : fleet(16)) {
      fleet.add(i.withImage("ami-0aaaaaaaaaaaaaaaa").withTag("aws:ec2launchtemplate:version", "1"));
    }
    // A reclaimed Spot node re-created from a newer image and a newer template version.
    fleet.set(
        7,
        fleet
            .get(7)
            .withImage("ami-0bbbbbbbbbbbbbbbb")
            .withTag("aws:ec2launchtemplate:version", "2"));
    standIn.addAll(fleet);
    Run r = drift(env(), SPEC.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("2 difference(s)"), r.out());
    assertTrue(
        r.out()
            .matches(
                "(?s).*"
                    + Fleet.id(7)
                    + " +image +expected ami-0aaaaaaaaaaaaaaaa \\(the rest of the pool\\),"
                    + " found ami-0bbbbbbbbbbbbbbbb.*"),
        r.out());
    assertTrue(
        r.out()
            .matches(
                "(?s).*"
                    + Fleet.id(7)
                    + " +launch-template-version +expected 1 \\(the rest of the pool\\), found"
                    + " 2.*"),
        r.out());
  }

  @Test
  void extraNodesAnUnknownPoolAndAWrongAmiAreReportedAsJson() throws Exception {
    Path spec =
        Files.writeString(
            tmp.resolve("cluster.yaml"),
            Files.readString(SPEC).replace("image: ubuntu-22.04", "image: ami-0fedcba9876543210"));
    List<Instance> fleet = new ArrayList<>();
    for (Instance i : fleet(17)) {
      fleet.add(i.withImage("ami-0fedcba9876543210"));
    }
    fleet.set(3, fleet.get(3).withImage("ami-0123456789abcdef0"));
    // The one launched last is the extra one: "extra" names it, not all 17.
    fleet.set(5, fleet.get(5).withLaunchTime(java.time.Instant.parse("2025-03-04T05:06:07Z")));
    fleet.add(
        Instance.of(
                Fleet.id(50),
                "p5.48xlarge",
                "us-east-1a",
                Fleet.tags("h100-training", "prod", "retired", "old"))
            .withImage("ami-0fedcba9876543210"));
    standIn.addAll(fleet);
    Run r = drift(env(), spec.toString(), "--format", "json");
    assertEquals(1, r.exit(), r.toString());
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertFalse(doc.get("inSync").asBoolean());
    Map<String, String> kinds = new TreeMap<>();
    doc.get("findings")
        .forEach(
            f ->
                kinds.put(
                    f.get("kind").asText(),
                    f.get("host").asText() + " " + f.get("actual").asText()));
    assertEquals(
        Map.of(
            "extra",
            " 17 instances (1 extra: " + Fleet.id(5) + ")",
            "ami",
            Fleet.id(3) + " ami-0123456789abcdef0",
            "unknown-pool",
            Fleet.id(50) + " pool retired"),
        kinds);
  }

  private static List<String> ids(int n) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(Fleet.id(i));
    }
    return ids;
  }

  @Test
  void anUnreachableEndpointExitsThreeWithOneLine() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Run r = drift(env("http://127.0.0.1:" + port), SPEC.toString());
    assertEquals(3, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().startsWith("gpugen: drift: cannot ask EC2: "), r.err());
    assertFalse(r.err().contains("\tat "), r.err());
  }

  @Test
  void refusedCredentialsExitThree() {
    standIn.acceptKeys("AKIDSOMEONEELSE");
    Run r = drift(env(), SPEC.toString());
    assertEquals(3, r.exit(), r.toString());
    assertEquals(1, r.err().lines().count(), r.err());
  }

  /** No line of {@code text} holds a control or bidi character: they are printed escaped. */
  private static void assertNoRawControls(String text) {
    for (char c : text.toCharArray()) {
      assertTrue(
          c == '\n' || !(c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u202e'),
          String.format("raw U+%04X in %s", (int) c, text));
    }
  }

  /**
   * EC2 tags and node facts are hostile: an escape sequence that clears the screen and a newline
   * that starts a forged "in sync" line are printed escaped, on the finding's own line.
   */
  @Test
  void hostileCloudAndNodeDataCannotForgeTheOutput() throws Exception {
    // What XML can carry: a C1 CSI (U+009B), a newline, a bidi override.
    String forged = "\u009b2J\ndrift h100-training/prod: in sync\u202e";
    standIn.addAll(fleet(16));
    standIn.add(
        Instance.of(
                Fleet.id(90),
                "p5.48xlarge",
                "us-east-1a",
                Fleet.tags("h100-training", "prod", "x" + forged, "n"))
            .withPlacementGroup(GROUP));
    Run cloud = drift(env(), SPEC.toString());
    assertEquals(1, cloud.exit(), cloud.toString());
    assertNoRawControls(cloud.out());
    assertTrue(
        cloud.out().contains("x\\x9b2J\\ndrift h100-training/prod: in sync\\u202e"), cloud.out());
    assertFalse(
        cloud.out().lines().anyMatch(l -> l.startsWith("drift h100-training/prod: in sync")),
        cloud.out());

    Path dir = Files.createDirectories(tmp.resolve("facts"));
    String hostile = "\\u001b[2J\\ndrift h100-training/prod: in sync\\u202e";
    Files.writeString(dir.resolve("node\u001b[2J"), facts("580.95.05", "n", "n", "s"));
    Files.writeString(dir.resolve("node-x"), facts("580.95.05\\n" + hostile, "n", "n", "s"));
    Run node = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(1, node.exit(), node.toString());
    assertNoRawControls(node.out());
    assertTrue(node.out().contains("node\\x1b[2J"), node.out());
    assertTrue(node.out().contains("found 580.95.05\\n\\x1b[2J"), node.out());
    assertFalse(
        node.out().lines().anyMatch(l -> l.startsWith("drift h100-training/prod: in sync")));
  }

  /**
   * A facts file named with a trailing line feed, or with shell syntax: its name is no inventory
   * host, so it is one finding naming the file escaped, with no fix command (none could carry a
   * trailing line feed: a command substitution drops it).
   */
  @Test
  void aFactsFileNamedWithALineFeedOrShellSyntaxIsAFindingWithoutAFix() throws Exception {
    String edited = Sha256.hex("NCCL_DEBUG=INFO\n");
    Path dir = Files.createDirectories(tmp.resolve("facts"));
    Files.writeString(dir.resolve("evil\n"), facts("570.172.08", "n", edited, "s"));
    Files.writeString(dir.resolve("node;touch x"), facts("570.172.08", "n", edited, "s"));
    Run r = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.err());
    assertTrue(r.out().contains("2 difference(s)"), r.out());
    assertTrue(r.out().contains(dir + "/evil\\n: not a plain host name"), r.out());
    assertTrue(r.out().contains(dir + "/node;touch x: not a plain host name"), r.out());
    assertFalse(r.out().contains("fix:"), r.out());
    assertEquals(3, r.out().lines().count(), r.out());
  }

  /**
   * Ansible reads -l as a host pattern: a facts file named all, '*', '~.*', a union of groups or
   * one of gpugen's groups would make a fix that drains and reboots every node it matches. Each is
   * a finding without a fix; the plain host beside them still gets its fix commands, and every -l
   * printed (text and JSON) names that host alone.
   */
  @Test
  void factsFilesNamedLikeHostPatternsGetNoFixCommand() throws Exception {
    String edited = Sha256.hex("NCCL_DEBUG=INFO\n");
    Path dir = Files.createDirectories(tmp.resolve("facts"));
    List<String> hostile =
        List.of(
            "all",
            "*",
            "~.*",
            "gpu_nodes:kube_control_plane",
            "gpu_nodes",
            "pool_h100",
            "ungrouped",
            "localhost",
            "ALL",
            "node-1,node-2",
            "node-[1:3]",
            "node-?",
            "!node-1",
            "gpu_nodes&spot",
            "@hosts.txt",
            "-node");
    for (String name : hostile) {
      Files.writeString(dir.resolve(name), facts("570.172.08", "n", edited, "s"));
    }
    Files.writeString(dir.resolve("node-1.json"), facts("570.172.08", "n", edited, "s"));
    Run r = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.err());
    for (String name : hostile) {
      assertTrue(
          r.out().lines().anyMatch(l -> l.contains("facts-name") && l.contains(dir + "/" + name)),
          name + " in " + r.out());
    }
    assertTrue(
        r.out().contains(dir + "/all: the name of Ansible's built-in group all, which -l"),
        r.out());
    assertTrue(
        r.out().contains(dir + "/gpu_nodes: named like gpugen's group gpu_nodes, which -l"),
        r.out());
    assertTrue(
        r.out()
            .contains(
                "       fix: ansible-playbook -i gpugen-inventory upgrade-driver.yml -l node-1"
                    + " drains the node"),
        r.out());
    assertTrue(
        r.out().contains("04-network-tuning.yml --check --diff -l node-1 shows the change"),
        r.out());
    assertEquals(List.of("node-1", "node-1"), limits(r.out()), r.out());

    Run json =
        drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString(), "--format", "json");
    assertEquals(1, json.exit(), json.toString());
    List<String> fixes = new ArrayList<>();
    for (JsonNode f : new ObjectMapper().readTree(json.out()).path("findings")) {
      if (f.has("fix")) {
        fixes.add(f.path("fix").asText());
      }
      if (f.path("kind").asText().equals("facts-name")) {
        assertEquals("", f.path("host").asText(), f.toString());
      }
    }
    assertEquals(2, fixes.size(), json.out());
    assertEquals(List.of("node-1", "node-1"), limits(String.join("\n", fixes)), json.out());
  }

  /** The word after each " -l " in the lines of {@code text} that run ansible-playbook. */
  private static List<String> limits(String text) {
    List<String> out = new ArrayList<>();
    java.util.regex.Pattern limit = java.util.regex.Pattern.compile(" -l (\\S+)");
    text.lines()
        .filter(l -> l.contains("ansible-playbook"))
        .forEach(
            l -> {
              java.util.regex.Matcher m = limit.matcher(l);
              while (m.find()) {
                out.add(m.group(1));
              }
            });
    return out;
  }

  /** Facts files are read bounded: a pipe or a file beyond 16 MiB is one line, exit 3. */
  @Test
  void factsThatArePipesOrHugeAreOneLineExitThree() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("facts"));
    Path huge = dir.resolve("huge.json");
    try (var ch =
        java.nio.channels.FileChannel.open(
            huge,
            java.nio.file.StandardOpenOption.CREATE,
            java.nio.file.StandardOpenOption.WRITE)) {
      ch.position(3L << 30).write(java.nio.ByteBuffer.wrap(new byte[] {'}'})); // sparse 3 GiB
    }
    Run big = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(3, big.exit(), big.toString());
    assertEquals(
        "gpugen: drift: " + huge + " is 3.0 GiB, more than the 16 MiB gpugen reads\n", big.err());
    Files.delete(huge);

    Path fifo = dir.resolve("pipe.json");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertEquals(0, mk.waitFor());
    Run pipe = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(3, pipe.exit(), pipe.toString());
    assertEquals(1, pipe.err().lines().count(), pipe.err());
    assertTrue(
        pipe.err().contains(fifo + " is not a regular file (a pipe or a device)"), pipe.err());
    assertEquals("", pipe.out());
  }

  /** The facts `ansible -m setup -a filter=ansible_local --tree DIR` writes for one host. */
  static String facts(
      String driver, String baselineNccl, String liveNccl, String specSha, String liveEnv) {
    return """
        {"ansible_facts": {"ansible_local": {
          "gpugen": {"gpugen_spec_sha256": "%s", "cluster": "h100-training", "environment": "prod",
                     "pool": "h100", "driver": "%s", "cuda": "12.8", "container_toolkit": "1.17.8",
                     "nccl_env_sha256": "%s"},
          "gpugen_nccl": {"conf": "/etc/nccl.conf", "nccl_env_sha256": "%s"%s}}},
         "changed": false}
        """
        .formatted(specSha, driver, baselineNccl, liveNccl, liveEnv);
  }

  static String facts(String driver, String baselineNccl, String liveNccl, String specSha) {
    return facts(driver, baselineNccl, liveNccl, specSha, "");
  }

  @Test
  void nodeFactsAreComparedWithTheSpec() throws Exception {
    String nccl = Sha256.hex("NCCL_DEBUG=WARN\nNCCL_SOCKET_IFNAME=^lo,docker\n");
    String specSha =
        Knowledge.gpugen()
            .check(SPEC, "x", java.util.Optional.empty(), java.util.Set.of())
            .plan()
            .orElseThrow()
            .fingerprint();
    Path dir = Files.createDirectories(tmp.resolve("facts"));
    Files.writeString(dir.resolve("node-a.json"), facts("580.95.05", nccl, nccl, specSha));
    Run ok = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(0, ok.exit(), ok.toString());

    String edited = Sha256.hex("NCCL_DEBUG=INFO\n");
    Files.writeString(dir.resolve("node-b.json"), facts("570.172.08", nccl, edited, specSha));
    Files.writeString(dir.resolve("node-c"), "{\"ansible_facts\": {\"ansible_local\": {}}}");
    Run r = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(1, r.exit(), r.toString());
    assertTrue(r.out().contains("3 difference(s)"), r.out());
    assertTrue(
        r.out()
            .contains("node-b               driver           expected 580.95.05, found 570.172.08"),
        r.out());
    // The driver's fix is the rolling upgrade, never site.yml (which refuses a loaded driver).
    assertTrue(
        r.out()
            .contains(
                "       fix: ansible-playbook -i gpugen-inventory upgrade-driver.yml -l node-b drains"
                    + " the node, installs the spec's driver, reboots and validates it"),
        r.out());
    assertTrue(
        r.out()
            .contains("node-b               nccl-conf        expected /etc/nccl.conf as play 04"),
        r.out());
    assertTrue(r.out().contains("a different /etc/nccl.conf (sha256 " + edited), r.out());

    // A node whose live fact carries the variables: what differs, in words, and the fix.
    Files.writeString(
        dir.resolve("node-b.json"),
        facts(
            "580.95.05",
            nccl,
            edited,
            specSha,
            ", \"env\": {\"NCCL_DEBUG\": \"INFO\", \"NCCL_ALGO\": \"Ring\"}"));
    Run words = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertTrue(
        words
            .out()
            .contains(
                "found NCCL_ALGO=Ring is set on the node but not in the spec; NCCL_DEBUG is INFO"
                    + " on the node, WARN in the spec; NCCL_SOCKET_IFNAME is missing on the node"
                    + " (the spec sets ^lo,docker)\n"),
        words.out());
    assertTrue(
        words
            .out()
            .contains(
                "       fix: ansible-playbook -i gpugen-inventory 04-network-tuning.yml --check"
                    + " --diff -l node-b shows the change"),
        words.out());
    assertTrue(r.out().contains("node-c               baseline"), r.out());
  }

  @Test
  void anEmptyFactsFolderIsNotInSync() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("empty"));
    Run r = drift(env(), SPEC.toString(), "--no-cloud", "--facts", dir.toString());
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().contains("no host facts"), r.err());
  }

  @Test
  void theEnvironmentOverlayDecidesCountsMarketAndTags() {
    // --env dev: two on-demand nodes tagged gpugen:environment=dev; prod's nodes are not extra.
    standIn.addAll(fleet(16));
    for (int i = 20; i < 22; i++) {
      standIn.add(
          Instance.of(
                  Fleet.id(i),
                  "p5.48xlarge",
                  "us-east-1a",
                  Fleet.tags("h100-training", "dev", "h100", "dev-" + i))
              .withPlacementGroup("h100-training-dev-h100"));
    }
    Run r = drift(env(), SPEC.toString(), "--env", "dev");
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().startsWith("drift h100-training/dev (cloud: 2 instances"), r.out());
  }
}
