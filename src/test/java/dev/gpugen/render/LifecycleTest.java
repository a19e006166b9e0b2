package dev.gpugen.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gpugen.TestSpecs;
import dev.gpugen.cli.DriftCommand;
import dev.gpugen.inventory.Ec2InstanceSource;
import dev.gpugen.inventory.StandIns;
import dev.gpugen.plan.ClusterPlan;
import dev.gpugen.plan.NodeSettings;
import dev.gpugen.testing.RealTools;
import dev.gpugen.testing.TerraformPlan;
import dev.gpugen.testing.TerraformTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Day 2 against an AWS emulator: the reference AWS spec is applied with the real hashicorp/aws
 * provider against moto (src/test/resources/moto/ec2_stand_in.py, whose shims fill moto's gaps),
 * then each everyday spec change is rendered as {@code gpugen render} would (with the node settings
 * the previous render accepted) and planned; the test asserts the exact sets of addresses the saved
 * plan creates, replaces and destroys ({@code terraform show -json}), or that Terraform refuses the
 * plan and why.
 *
 * <p>The applied spec is the reference spec with 4 on-demand nodes: moto 5.2.1 keeps no Spot
 * request for an instance launched with InstanceMarketOptions, so a spot node reads back without
 * its market and would plan as replaced on every plan (a shim for DescribeSpotInstanceRequests is
 * the missing piece); 4 nodes keep the apply short and are enough for every node-key row.
 */
@TerraformTest
class LifecycleTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PLAN = Duration.ofMinutes(10);
  private static final String POOL = "module.pool[\"h100\"]";

  @TempDir static Path scratch;
  private static Process moto;
  private static TerraformPlan.Workspace ws;
  private static SortedMap<String, String> applied;

  /** The nodes the re-run after the capacity shortage launched, by address. */
  private static List<String> rerunNodes;

  private static String endpoint;

  private static final String A100_POOL = "module.pool[\"a100\"]";

  /** A second pool, so that a row can add, remove or rename one beside the first. */
  private static final String A100 =
      "{name: a100, instanceType: p4d.24xlarge, count: 1, market: on-demand}";

  private static final String KMS_KEY =
      "arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";

  static final String BASE;

  static {
    try {
      BASE =
          Files.readString(
                  Path.of("src/test/resources/golden/aws-h100-reference/spec.yaml"),
                  StandardCharsets.UTF_8)
              .replace("count: 16", "count: 4")
              .replace("market: spot ", "market: on-demand ")
              .replace("\nsoftware:", "\n  - " + A100 + "\nsoftware:");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @BeforeAll
  static void applyTheReferenceSpec() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    // Canonical's image for the owner-pinned lookup (MOTO_AMIS_PATH), named as Canonical names it.
    Path amis = scratch.resolve("amis.json");
    Files.writeString(
        amis,
        """
        [{"ami_id": "ami-0a1b2c3d4e5f60718", "state": "available", "public": true,
          "owner_id": "099720109477",
          "image_location": "amazon/ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-20250305",
          "root_device_type": "ebs", "root_device_name": "/dev/sda1", "image_type": "machine",
          "architecture": "x86_64", "virtualization_type": "hvm", "hypervisor": "xen",
          "name": "ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-20250305",
          "description": "Canonical, Ubuntu, 22.04 LTS, amd64 jammy image build on 2025-03-05"}]
        """,
        StandardCharsets.UTF_8);
    moto =
        RealTools.start(
            new ProcessBuilder(
                    "python3",
                    Path.of("src/test/resources/moto/ec2_stand_in.py").toAbsolutePath().toString(),
                    Integer.toString(port),
                    amis.toString())
                .redirectErrorStream(true)
                .redirectOutput(scratch.resolve("moto.log").toFile()));
    waitFor(port);
    SortedMap<String, String> files = render(BASE, new TreeMap<>(), false);
    endpoint = "http://127.0.0.1:" + port;
    // The first apply meets a capacity shortage: EC2 launches two p5.48xlarge, then answers
    // InsufficientInstanceCapacity (the stand-in's capacity.json; the provider retries once).
    Path capacity = scratch.resolve("capacity.json");
    Files.writeString(capacity, "{\"instanceType\": \"p5.48xlarge\", \"launches\": 2}");
    files.put("moto_override.tf", override(endpoint, 1));
    ws = TerraformPlan.init(scratch, files);
    RealTools.Result shortage = apply();
    assertNotEquals(
        0, shortage.exitCode(), "the apply must fail on capacity:\n" + shortage.output());
    assertTrue(shortage.output().contains("InsufficientInstanceCapacity"), shortage.output());
    List<String> before = nodesInState();
    assertEquals(2, before.stream().filter(a -> a.startsWith(POOL)).count(), before.toString());

    // Capacity back: the same apply again completes the pool, one RunInstances per missing node.
    Files.delete(capacity);
    Files.writeString(ws.dir().resolve("moto_override.tf"), override(endpoint, null));
    Path requests = scratch.resolve("requests.log");
    Files.writeString(requests, "");
    // Without refreshing: moto reads back what AWS would not (a rule's description, the root
    // volume's iops, user data), and its ModifySecurityGroupRules rejects an all-protocols rule,
    // so a refreshed apply would stumble on the emulator. The re-run's point is the missing nodes.
    apply("-refresh=false").assertOk();
    List<String> after = nodesInState();
    rerunNodes = after.stream().filter(a -> !before.contains(a)).toList();
    assertEquals(4, after.stream().filter(a -> a.startsWith(POOL)).count(), after.toString());
    assertEquals(1, after.stream().filter(a -> a.startsWith(A100_POOL)).count(), after.toString());
    long launches =
        Files.readAllLines(requests).stream().filter(l -> l.startsWith("RunInstances ")).count();
    assertEquals(
        after.size() - before.size(),
        launches,
        "the provider launches each aws_instance with a RunInstances of its own");
    // The applied render was a first render: its manifest records no --allow-replace.
    applied =
        NodeSettings.recordAllowed(
            NodeSettings.allowed(new TreeMap<>(), TestSpecs.plan(TestSpecs.parse(BASE)), false));
    assertEquals(new TreeMap<>(), applied);
  }

  private static RealTools.Result apply(String... more) throws Exception {
    List<String> args =
        new java.util.ArrayList<>(
            List.of("apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"));
    args.addAll(List.of(more));
    return ws.run(Duration.ofMinutes(15), args.toArray(String[]::new));
  }

  /** The instances in the workspace's state. */
  private static List<String> nodesInState() throws Exception {
    return ws.run(PLAN, "state", "list")
        .assertOk()
        .output()
        .lines()
        .filter(l -> l.contains(".aws_instance.this["))
        .toList();
  }

  @AfterAll
  static void stopTheEmulator() throws InterruptedException {
    if (moto != null) {
      moto.destroy();
      moto.waitFor();
    }
  }

  @Test
  void theUnchangedSpecPlansNothingCreatedReplacedOrDestroyed() throws Exception {
    Changes c = changes(BASE, applied, false, Run.REFRESHED_PLAN);
    assertEquals(Set.of(), c.created(), "created");
    assertEquals(Set.of(), c.replaced(), "replaced");
    assertEquals(Set.of(), c.destroyed(), "destroyed");
  }

  @Test
  void aDriverChangeChangesNoInfrastructure() throws Exception {
    Changes c = plan(BASE.replace("driver: \"580.95.05\"", "driver: \"580.82.07\""), false);
    assertEquals(new Changes(Set.of(), Set.of(), Set.of()), c);
  }

  @Test
  void countMinusOneDestroysTheHighestNodeAlone() throws Exception {
    Changes c = plan(BASE.replace("count: 4", "count: 3"), false);
    assertEquals(new Changes(Set.of(), Set.of(), Set.of(node("3"))), c);
  }

  @Test
  void retiringANamedNodeDestroysThatNodeAlone() throws Exception {
    Changes c = plan(BASE.replace("count: 4", "count: 3\n    retire: [1]"), false);
    assertEquals(new Changes(Set.of(), Set.of(), Set.of(node("1"))), c);
  }

  @Test
  void anInstanceTypeChangeIsRefusedUnlessAllowedAndThenReplacesEveryNode() throws Exception {
    String spec = BASE.replace("p5.48xlarge", "p5e.48xlarge");
    String refused = refused(spec);
    assertTrue(refused.contains("Pool h100: its instance_type changed"), refused);
    Changes c = plan(spec, true);
    assertEquals(allNodesReplaced(), c.replaced(), "replaced");
    assertEquals(Set.of(), c.destroyed(), "destroyed");
    assertEquals(Set.of(), c.created(), "created");
  }

  @Test
  void anSshKeyChangeIsRefusedUnlessAllowed() throws Exception {
    String spec = BASE.replace("sshKeyName: ops ", "sshKeyName: ops2 ");
    assertTrue(refused(spec).contains("its ssh_key_name changed"));
    assertEquals(union(allNodesReplaced(), a100Replaced()), plan(spec, true).replaced());
  }

  @Test
  void aRenderIntoAFreshFolderIsRefusedByTheSettingsInStateUntilTheirRecordIsReplaced()
      throws Exception {
    synchronized (LifecycleTest.class) {
      String spec = BASE.replace("instanceType: p4d.24xlarge", "instanceType: p4de.24xlarge");
      assertNotEquals(BASE, spec);
      // A fresh folder (CI, another machine, a deleted roles-generated/): no manifest, so no
      // earlier --allow-replace; the state still records the applied settings.
      SortedMap<String, String> fresh = new TreeMap<>();
      RealTools.Result r = planOnly(spec, fresh, false, Run.PLAN);
      assertNotEquals(0, r.exitCode(), "the plan must be refused:\n" + r.output());
      String refused = r.output().replaceAll("\\s+", " ");
      assertTrue(
          refused.contains("Pool a100: its instance_type")
              && refused.contains(
                  "terraform apply -replace='terraform_data.recorded_node_settings[\"a100\"]'"),
          refused);
      assertFalse(refused.contains("Pool h100:"), refused);
      // Re-recorded (what gpugen up --allow-replace passes): the pool's nodes are replaced.
      String replace = "-replace=" + record("a100");
      Changes c = plan(spec, fresh, false, replace);
      assertEquals(union(a100Replaced(), Set.of(record("a100"))), c.replaced(), "replaced");
      assertEquals(Set.of(), c.created(), "created");
      assertEquals(Set.of(), c.destroyed(), "destroyed");
      planOnly(spec, fresh, false, Run.APPLY, replace).assertOk();
      try {
        // The state records the new settings: another fresh render plans nothing, and the old
        // spec is the change now.
        assertEquals(new Changes(Set.of(), Set.of(), Set.of()), plan(spec, fresh, false));
        assertTrue(refused(BASE).contains("Pool a100: its instance_type"));
      } finally {
        // Back to the applied spec for the other rows.
        planOnly(BASE, fresh, false, Run.APPLY, replace).assertOk();
      }
      assertEquals(new Changes(Set.of(), Set.of(), Set.of()), plan(BASE, false));
    }
  }

  @Test
  void aKmsKeyOfOnesOwnOnTheFirstApplyIsRecordedAndNotRefusedAfter() throws Exception {
    // A cluster of its own (names, VPC) beside the applied one, without Lustre and bucket.
    String spec =
        BASE.replace("name: h100-training ", "name: kms-day-one   ")
            .replaceAll("(?s)\nstorage:.*?\npools:", "\npools:")
            .replace("count: 4", "count: 1")
            .replace("\n  - " + A100, "");
    assertFalse(spec.contains("lustre"), spec);
    String[] kms = {"-var", "kms_key_id=" + KMS_KEY};
    SortedMap<String, String> files = render(spec, new TreeMap<>(), false);
    files.put("moto_override.tf", override(endpoint, null));
    TerraformPlan.Workspace own = TerraformPlan.init(scratch.resolve("kms"), files);
    List<String> apply =
        new java.util.ArrayList<>(
            List.of("apply", "-auto-approve", "-input=false", "-no-color", "-parallelism=20"));
    apply.addAll(List.of(kms));
    own.run(Duration.ofMinutes(15), apply.toArray(String[]::new)).assertOk();
    // The next render of the same folder keeps what the first recorded (no --allow-replace) and
    // plans with the same key: nothing refused, nothing replaced.
    SortedMap<String, String> again =
        render(
            spec,
            NodeSettings.recordAllowed(
                NodeSettings.allowed(
                    new TreeMap<>(), TestSpecs.plan(TestSpecs.parse(spec)), false)),
            false);
    again.forEach(
        (name, text) -> {
          try {
            Files.writeString(own.dir().resolve(name), text, StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        });
    List<String> plan =
        new java.util.ArrayList<>(List.of("plan", "-input=false", "-lock=false", "-json"));
    plan.addAll(List.of(kms));
    assertEquals(
        new Changes(Set.of(), Set.of(), Set.of()),
        changes(own.run(PLAN, plan.toArray(String[]::new))),
        "created, replaced or destroyed");
  }

  /**
   * The joins after an apply: the inventory settings the render writes find, by the tags the
   * Terraform wrote, exactly the instances Terraform launched, under their pools; gpugen drift
   * finds them in sync with the spec, then names a node launched beside them through the EC2 API.
   */
  @Test
  void theInventoryAndDriftReadTheNodesTerraformLaunchedAndNameOneLaunchedByHand()
      throws Exception {
    ClusterPlan plan = TestSpecs.plan(TestSpecs.parse(BASE));
    RenderedTree tree =
        new Renderer(Templates.load(Optional.empty()))
            .render(plan, "spec.yaml", NodeSettings.allowed(new TreeMap<>(), plan, false));
    Path dir = scratch.resolve("joins");
    Files.createDirectories(dir.resolve("cache"));
    Path config = dir.resolve("gpugen-inventory.json");
    Files.write(config, tree.files().get("ansible/gpugen-inventory.json").content());
    Path spec = dir.resolve("cluster.yaml");
    Files.writeString(spec, BASE, StandardCharsets.UTF_8);
    Map<String, String> env = new HashMap<>();
    env.put("GPUGEN_EC2_ENDPOINT", endpoint);
    env.put("GPUGEN_CACHE_DIR", dir.resolve("cache").toString());
    env.put("GPUGEN_MAX_ATTEMPTS", "1");
    env.put("AWS_EC2_METADATA_DISABLED", "true");

    // What Terraform launched, by its outputs: pool -> node key -> private IP.
    JsonNode ips =
        JSON.readTree(ws.run(PLAN, "output", "-json", "private_ips").assertOk().output());
    StandIns.Run list =
        StandIns.run(
            StandIns.context(env, java.time.Clock.systemUTC()),
            "--list",
            "--config",
            config.toString());
    assertEquals(0, list.code(), list.err());
    JsonNode inv = JSON.readTree(list.out());
    for (String pool : List.of("h100", "a100")) {
      Set<String> launched = new TreeSet<>();
      ips.path(pool).forEach(ip -> launched.add(ip.asText()));
      Set<String> listed = new TreeSet<>();
      inv.path("pool_" + pool)
          .path("hosts")
          .forEach(
              h ->
                  listed.add(
                      inv.path("_meta")
                          .path("hostvars")
                          .path(h.asText())
                          .path("ansible_host")
                          .asText()));
      assertEquals(pool.equals("h100") ? 4 : 1, launched.size(), ips.toString());
      assertEquals(launched, listed, "pool_" + pool + " lists the nodes Terraform launched");
    }

    // The re-run updated each launch template in place before launching the rest (moto reads
    // back interface lists and template tags AWS does not return, so the provider saw a
    // difference): the pool's nodes run two template versions, two each, and drift names the
    // re-run's two, the version most of the pool (ties: the lowest) being the first run's.
    JsonNode ids =
        JSON.readTree(ws.run(PLAN, "output", "-json", "instance_ids").assertOk().output());
    Set<String> rerun = new TreeSet<>();
    for (String address : rerunNodes) {
      if (address.startsWith(POOL)) {
        rerun.add(ids.path("h100").path(address.replaceAll(".*\\[\"(\\d+)\"\\]$", "$1")).asText());
      }
    }
    assertEquals(2, rerun.size(), rerunNodes.toString());
    assertEquals(rerun, hostsOf(drift(env, spec), "launch-template-version"));
    String byHand =
        ec2(
            "r = c.run_instances(ImageId='ami-0a1b2c3d4e5f60718', InstanceType='p5.48xlarge',"
                + " MinCount=1, MaxCount=1, TagSpecifications=[{'ResourceType': 'instance',"
                + " 'Tags': [{'Key': k, 'Value': v} for k, v in {'gpugen:cluster':"
                + " 'h100-training', 'gpugen:environment': 'prod', 'gpugen:pool': 'h100',"
                + " 'ManagedBy': 'gpugen',"
                + " 'Name': 'by-hand'}.items()]}])\n"
                + "print(r['Instances'][0]['InstanceId'])");
    try {
      JsonNode findings = drift(env, spec).path("findings");
      List<String> extra = new java.util.ArrayList<>();
      findings.forEach(
          f -> {
            if (f.path("kind").asText().equals("extra")) {
              extra.add(f.path("pool").asText() + " " + f.path("actual").asText());
            }
          });
      assertEquals(1, extra.size(), findings.toString());
      assertTrue(extra.get(0).startsWith("h100 5 instances (1 extra: "), extra.toString());
      assertTrue(extra.get(0).contains(byHand.strip()), extra + " names " + byHand);
    } finally {
      ec2("c.terminate_instances(InstanceIds=['" + byHand.strip() + "'])");
    }
    assertEquals(
        List.of("launch-template-version", "launch-template-version"),
        drift(env, spec).path("findings").findValuesAsText("kind"),
        "the node launched by hand is gone again");
  }

  /** The hosts of a drift report's findings of {@code kind}. */
  private static Set<String> hostsOf(JsonNode report, String kind) {
    Set<String> out = new TreeSet<>();
    report
        .path("findings")
        .forEach(
            f -> {
              if (f.path("kind").asText().equals(kind)) {
                out.add(f.path("host").asText());
              }
            });
    return out;
  }

  /** gpugen drift --format json of {@code spec} against the emulator. */
  private static JsonNode drift(Map<String, String> env, Path spec) throws Exception {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    new picocli.CommandLine(
            new DriftCommand(
                new DriftCommand.Context(env, c -> new Ec2InstanceSource(c, StandIns.CREDENTIALS))))
        .setOut(new java.io.PrintWriter(out))
        .setErr(new java.io.PrintWriter(err))
        .execute("--format", "json", spec.toString());
    return JSON.readTree(out.toString());
  }

  /** Runs boto3 against the emulator with an EC2 client {@code c}: an out-of-band change. */
  private static String ec2(String python) throws Exception {
    return RealTools.run(
            scratch,
            PLAN,
            Map.of(
                "AWS_ACCESS_KEY_ID", "testing",
                "AWS_SECRET_ACCESS_KEY", "testing",
                "AWS_DEFAULT_REGION", "us-east-1"),
            "python3",
            "-c",
            "import boto3\nc = boto3.client('ec2', endpoint_url='" + endpoint + "')\n" + python)
        .assertOk()
        .output();
  }

  @Test
  void addingAPoolCreatesItsGroupTemplateAndNodesAlone() throws Exception {
    Changes c =
        plan(
            BASE.replace(
                "\nsoftware:",
                "\n  - {name: extra, instanceType: p4d.24xlarge, count: 1}\nsoftware:"),
            false);
    assertEquals(
        new Changes(wholePool("extra", 1), Set.of(), Set.of()),
        c,
        "the new pool's placement group, launch template, node, guard and recorded settings;"
            + " nothing else");
  }

  @Test
  void removingAPoolDestroysItsGroupTemplateAndNodesAlone() throws Exception {
    String spec = BASE.replace("\n  - " + A100, "");
    assertNotEquals(BASE, spec);
    assertEquals(new Changes(Set.of(), Set.of(), wholePool("a100", 1)), plan(spec, false));
  }

  @Test
  void renamingAPoolWithRenamedFromMovesItWithoutReplacingAnything() throws Exception {
    String spec = BASE.replace("{name: a100,", "{name: a100-b, renamedFrom: a100,");
    assertNotEquals(BASE, spec);
    assertEquals(new Changes(Set.of(), Set.of(), Set.of()), plan(spec, false));
  }

  @Test
  void anotherZoneIsRefusedForTheNodesAndByTheRetainedFileSystem() throws Exception {
    String spec = BASE.replace("availabilityZone: us-east-1a", "availabilityZone: us-east-1b");
    assertNotEquals(BASE, spec);
    String r = refused(spec);
    assertTrue(r.contains("Pool h100: its subnet changed"), r);
    // Allowed for the nodes, the file system in the old zone's subnet still refuses.
    String allowed = refused(spec, true);
    assertTrue(
        allowed.contains("Instance cannot be destroyed")
            && allowed.contains("aws_fsx_lustre_file_system.this[0]"),
        allowed);
    assertFalse(allowed.contains("its subnet changed"), allowed);
  }

  @Test
  void anEnvironmentRenameIsRefusedForTheNodesAndKeepsTheData() throws Exception {
    String spec = BASE.replace("environment: prod ", "environment: stage ");
    assertNotEquals(BASE, spec);
    String r = refused(spec);
    assertTrue(
        r.contains("Pool h100: its launch_template_name_prefix, placement_group changed"), r);
    Changes c = plan(spec, true);
    Set<String> data =
        Set.of(
            "aws_fsx_lustre_file_system.this[0]",
            "aws_s3_bucket.checkpoint[0]",
            "aws_security_group.lustre[0]");
    assertEquals(
        List.of(), union(c.replaced(), c.destroyed()).stream().filter(data::contains).toList());
    assertEquals(
        union(
            union(allNodesReplaced(), a100Replaced()),
            Set.of(
                POOL + ".aws_launch_template.this",
                POOL + ".aws_placement_group.this[0]",
                A100_POOL + ".aws_launch_template.this",
                A100_POOL + ".aws_placement_group.this[0]",
                // Named after the cluster and its environment: the nodes' role and group.
                "aws_iam_instance_profile.nodes",
                "aws_iam_role.nodes",
                "aws_iam_role_policy.nodes_checkpoint[0]",
                "aws_iam_role_policy.nodes_session_manager",
                "aws_security_group.nodes",
                "aws_vpc_security_group_egress_rule.nodes_http[0]",
                "aws_vpc_security_group_egress_rule.nodes_https[0]",
                "aws_vpc_security_group_egress_rule.nodes_to_lustre[\"lnet\"]",
                "aws_vpc_security_group_egress_rule.nodes_to_lustre[\"services\"]",
                "aws_vpc_security_group_egress_rule.nodes_to_nodes",
                "aws_vpc_security_group_ingress_rule.nodes_from_lustre[\"lnet\"]",
                "aws_vpc_security_group_ingress_rule.nodes_from_lustre[\"services\"]",
                "aws_vpc_security_group_ingress_rule.nodes_from_nodes",
                "aws_vpc_security_group_ingress_rule.nodes_ssh[\"203.0.113.0/24\"]")),
        c.replaced(),
        "created " + c.created() + ", destroyed " + c.destroyed());
    assertEquals(Set.of(), c.created());
    assertEquals(Set.of(), c.destroyed());
  }

  @Test
  void aKmsKeyIsRefusedForTheNodesAndByTheRetainedFileSystem() throws Exception {
    String r = refused(BASE, false, "-var", "kms_key_id=" + KMS_KEY);
    assertTrue(
        r.contains("Pool h100: its kms_key_id changed")
            && r.contains("Pool a100: its kms_key_id changed"),
        r);
    // Allowed by re-recording the pools' settings (-replace), the file system (encrypted with its
    // key at creation) still refuses.
    String allowed =
        refused(
            BASE,
            false,
            "-var",
            "kms_key_id=" + KMS_KEY,
            "-replace=" + record("h100"),
            "-replace=" + record("a100"));
    assertTrue(
        allowed.contains("Instance cannot be destroyed")
            && allowed.contains("aws_fsx_lustre_file_system.this[0]"),
        allowed);
    assertFalse(allowed.contains("its kms_key_id changed"), allowed);
  }

  @Test
  void placementNoneIsRefusedThenReplacesTheNodesBeforeDeletingTheGroups() throws Exception {
    String spec = BASE.replace("placement: cluster ", "placement: none    ");
    assertNotEquals(BASE, spec);
    assertTrue(refused(spec).contains("its placement_group changed"));
    assertEquals(
        new Changes(
            Set.of(),
            union(allNodesReplaced(), a100Replaced()),
            Set.of(
                POOL + ".aws_placement_group.this[0]", A100_POOL + ".aws_placement_group.this[0]")),
        plan(spec, true),
        "the groups go only after the nodes left them (Terraform destroys a dependency after its"
            + " dependents)");
  }

  @Test
  void aMarketChangeIsRefusedUnlessAllowed() throws Exception {
    assertTrue(
        refused(BASE.replace("market: on-demand ", "market: spot "))
            .contains("its market changed"));
  }

  @Test
  void anotherPlacementStrategyCreatesANewGroupBeforeTheOldGoes() throws Exception {
    String spec = BASE.replace("placement: cluster ", "placement: spread ");
    assertTrue(refused(spec).contains("its placement_group changed"));
    Changes c = plan(spec, true);
    assertEquals(
        new Changes(
            Set.of(),
            union(
                union(allNodesReplaced(), a100Replaced()),
                Set.of(
                    POOL + ".aws_placement_group.this[0]",
                    A100_POOL + ".aws_placement_group.this[0]")),
            Set.of()),
        new Changes(c.created(), c.replaced(), c.destroyed()),
        "the group's name follows its strategy: a new group (create_before_destroy), the nodes"
            + " replaced into it");
  }

  @Test
  void aSmallerLustreIsRefusedByTheRetainedFileSystem() throws Exception {
    String r = refused(BASE.replace("capacityGiB: 4800", "capacityGiB: 2400"));
    assertTrue(
        r.contains("Instance cannot be destroyed")
            && r.contains("aws_fsx_lustre_file_system.this[0]"),
        r);
  }

  @Test
  void anotherLustreDeploymentTypeIsRefusedByTheRetainedFileSystem() throws Exception {
    String r =
        refused(
            BASE.replace("deploymentType: PERSISTENT_2", "deploymentType: PERSISTENT_1")
                .replace("perUnitStorageThroughput: 1000", "perUnitStorageThroughput: 200"));
    assertTrue(r.contains("aws_fsx_lustre_file_system.this[0]"), r);
  }

  @Test
  void removingLustreIsRefusedByTheRetainedFileSystem() throws Exception {
    String spec = BASE.replaceAll("(?s)  lustre: .*?mountPoint: /fsx[^\\n]*\\n", "");
    assertNotEquals(BASE, spec);
    String r = refused(spec);
    assertTrue(r.contains("aws_fsx_lustre_file_system.this[0]"), r);
  }

  @Test
  void aBucketRenameIsRefusedByTheRetainedBucket() throws Exception {
    String r = refused(BASE.replace("h100-training-ckpt", "h100-training-ckpt2"));
    assertTrue(
        r.contains("Instance cannot be destroyed") && r.contains("aws_s3_bucket.checkpoint[0]"), r);
  }

  @Test
  void retainFalseLetsTheSameEditReplaceTheFileSystem() throws Exception {
    String spec =
        BASE.replace("capacityGiB: 4800", "capacityGiB: 2400")
            .replace("  checkpointBucket:", "  retain: false\n  checkpointBucket:");
    Changes c = plan(spec, false);
    assertEquals(Set.of("aws_fsx_lustre_file_system.unprotected[0]"), c.replaced());
    assertEquals(Set.of(), c.destroyed());
  }

  // ----------------------------------------------------------------------------------------------

  /** The addresses a saved plan creates, replaces (either order) and destroys. */
  record Changes(Set<String> created, Set<String> replaced, Set<String> destroyed) {}

  private static String node(String key) {
    return POOL + ".aws_instance.this[\"" + key + "\"]";
  }

  private static Set<String> allNodesReplaced() {
    Set<String> out =
        IntStream.range(0, 4)
            .mapToObj(i -> node(Integer.toString(i)))
            .collect(Collectors.toCollection(TreeSet::new));
    out.add(POOL + ".terraform_data.replacement");
    return out;
  }

  private static Set<String> a100Replaced() {
    return Set.of(
        A100_POOL + ".aws_instance.this[\"0\"]", A100_POOL + ".terraform_data.replacement");
  }

  /** Everything a pool of {@code nodes} nodes in a cluster placement group has in state. */
  private static Set<String> wholePool(String pool, int nodes) {
    String m = "module.pool[\"" + pool + "\"]";
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < nodes; i++) {
      out.add(m + ".aws_instance.this[\"" + i + "\"]");
    }
    out.add(m + ".aws_launch_template.this");
    out.add(m + ".aws_placement_group.this[0]");
    out.add(m + ".terraform_data.replacement");
    out.add("terraform_data.node_replacement_guard[\"" + pool + "\"]");
    out.add(record(pool));
    return out;
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    return Stream.concat(a.stream(), b.stream()).collect(Collectors.toCollection(TreeSet::new));
  }

  /** The spec rendered as gpugen render does after the applied render (--allow-replace: allow). */
  private static SortedMap<String, String> render(
      String yaml, SortedMap<String, String> previous, boolean allow) throws Exception {
    ClusterPlan plan = TestSpecs.plan(TestSpecs.parse(yaml));
    return Rendered.terraformOf(
        new Renderer(Templates.load(Optional.empty()))
            .render(plan, "spec.yaml", NodeSettings.allowed(previous, plan, allow)));
  }

  /**
   * What a row runs on the applied workspace. A row's plan does not refresh: what a spec change
   * does is the configuration against the state, and the state is the apply's (the unchanged row
   * refreshes, so that every object read back matches the configuration too).
   */
  private enum Run {
    PLAN,
    REFRESHED_PLAN,
    APPLY
  }

  /** Writes the spec's render over the applied workspace (its state kept) and plans it. */
  private static RealTools.Result planOnly(String yaml, boolean allow, String... vars)
      throws Exception {
    return planOnly(yaml, applied, allow, Run.PLAN, vars);
  }

  /**
   * Writes the spec's render after a render whose manifest values were {@code previous} over the
   * applied workspace (its state kept) and runs {@code command} (plan or apply) on it.
   */
  private static RealTools.Result planOnly(
      String yaml, SortedMap<String, String> previous, boolean allow, Run run, String... vars)
      throws Exception {
    SortedMap<String, String> files = render(yaml, previous, allow);
    try (Stream<Path> s = Files.walk(ws.dir())) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String rel = ws.dir().relativize(p).toString();
        if (!rel.startsWith(".terraform")
            && !rel.startsWith("terraform.tfstate")
            && !rel.equals("moto_override.tf")) {
          Files.delete(p);
        }
      }
    }
    for (var f : files.entrySet()) {
      Path p = ws.dir().resolve(f.getKey());
      Files.createDirectories(p.getParent());
      Files.writeString(p, f.getValue(), StandardCharsets.UTF_8);
    }
    List<String> args =
        new java.util.ArrayList<>(
            run != Run.APPLY
                ? List.of(
                    "plan",
                    "-input=false",
                    "-no-color",
                    "-lock=false",
                    "-refresh=" + (run == Run.REFRESHED_PLAN))
                // Without refreshing, as the first apply (applyTheReferenceSpec says why).
                : List.of(
                    "apply",
                    "-auto-approve",
                    "-input=false",
                    "-no-color",
                    "-refresh=false",
                    "-parallelism=20"));
    args.addAll(List.of(vars));
    return ws.run(Duration.ofMinutes(15), args.toArray(String[]::new));
  }

  /** The addresses of the pools' recorded node settings in state (pools.tf). */
  private static String record(String pool) {
    return NodeSettings.RECORD + "[\"" + pool + "\"]";
  }

  /**
   * The plan of the spec rendered after the applied render; no pool's recorded settings may be
   * replaced (only -replace re-records them, which no row but the -replace ones passes).
   */
  private static synchronized Changes plan(String yaml, boolean allow) throws Exception {
    Changes c = plan(yaml, applied, allow);
    assertEquals(
        List.of(),
        c.replaced().stream().filter(a -> a.startsWith(NodeSettings.RECORD)).toList(),
        "a row that passes no -replace replaces no recorded settings");
    return c;
  }

  /** The plan of the spec rendered after a render whose manifest values were previous. */
  private static synchronized Changes plan(
      String yaml, SortedMap<String, String> previous, boolean allow, String... vars)
      throws Exception {
    return changes(yaml, previous, allow, Run.PLAN, vars);
  }

  /**
   * What {@code run} (a plan, refreshed or not) of the spec's render would change, read from the
   * plan's machine-readable output ({@code -json}: a {@code planned_change} message per resource
   * instance Terraform would change, with its action, documented at
   * https://developer.hashicorp.com/terraform/internals/machine-readable-ui). A {@code terraform
   * show -json} of a saved plan would say the same, at the cost of starting the provider again.
   */
  private static synchronized Changes changes(
      String yaml, SortedMap<String, String> previous, boolean allow, Run run, String... vars)
      throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of(vars));
    args.add("-json");
    return changes(planOnly(yaml, previous, allow, run, args.toArray(String[]::new)));
  }

  /** What a {@code terraform plan -json} that succeeded would create, replace and destroy. */
  private static Changes changes(RealTools.Result r) throws IOException {
    r.assertOk();
    Set<String> created = new TreeSet<>();
    Set<String> replaced = new TreeSet<>();
    Set<String> destroyed = new TreeSet<>();
    boolean summary = false;
    for (String line : r.output().split("\n")) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode m = JSON.readTree(line);
      summary |= m.path("type").asText().equals("change_summary");
      if (!m.path("type").asText().equals("planned_change")) {
        continue;
      }
      String address = m.path("change").path("resource").path("addr").asText();
      switch (m.path("change").path("action").asText()) {
        case "create" -> created.add(address);
        case "replace" -> replaced.add(address);
        case "delete" -> destroyed.add(address);
        default -> {
          // update, no-op, move, read, import, remove (forget): nothing created or destroyed.
        }
      }
    }
    assertTrue(summary, "the plan printed no change summary:\n" + r.output());
    return new Changes(created, replaced, destroyed);
  }

  /** The spec's plan must fail: what Terraform said, line breaks folded. */
  private static synchronized String refused(String yaml) throws Exception {
    return refused(yaml, false);
  }

  /** The spec's plan, rendered with or without --allow-replace and with vars, must fail. */
  private static synchronized String refused(String yaml, boolean allow, String... vars)
      throws Exception {
    RealTools.Result r = planOnly(yaml, allow, vars);
    assertNotEquals(0, r.exitCode(), "the plan must be refused:\n" + r.output());
    return r.output().replaceAll("\\s+", " ");
  }

  /** The provider pointed at the emulator; maxRetries, where set, bounds retries of a 500. */
  private static String override(String endpoint, Integer maxRetries) {
    StringBuilder b =
        new StringBuilder(
            """
            # Written by LifecycleTest: the real provider, pointed at the emulator on loopback.
            provider "aws" {
              access_key                  = "testing"
              secret_key                  = "testing"
              skip_credentials_validation = true
              skip_metadata_api_check     = true
              s3_use_path_style           = true
            """);
    if (maxRetries != null) {
      b.append("  max_retries                 = ").append(maxRetries).append('\n');
    }
    b.append("\n  endpoints {\n");
    for (String svc : List.of("ec2", "iam", "s3", "sts", "fsx", "ssm", "elbv2", "eks")) {
      b.append("    ").append(svc).append(" = \"").append(endpoint).append("\"\n");
    }
    return b.append("  }\n}\n").toString();
  }

  private static void waitFor(int port) throws Exception {
    for (int i = 0; i < 300; i++) {
      if (!moto.isAlive()) {
        throw new AssertionError(
            "the emulator exited:\n" + Files.readString(scratch.resolve("moto.log")));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    throw new AssertionError("the emulator never listened on " + port);
  }
}
